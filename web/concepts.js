// View 5, ensemble concepts from the lecture [Gag], computed live: Condorcet's jury curve and
// bootstrap samples. No library call: these hold for any ensemble.
import { frame, h, linePath, pct, s } from './charts.js';
import { bootstrapCounts, majorityCorrect, rng } from './math.js';

const $ = (id) => document.getElementById(id);
const JURIES = [1, 3, 11, 21, 101, 1001];

export function createConceptsView() {
  function condorcet() {
    const p = Number($('cj-p').value);
    $('cj-p-out').textContent = p.toFixed(2);
    const f = frame({ w: 440, h: 260, x: [0, 1], y: [0, 1], xLabel: 'p: accuracy of one voter', yLabel: 'P(majority is right)',
      title: "Condorcet's jury curves", xFormat: (v) => v.toFixed(1), yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1], yFormat: (v) => v.toFixed(1) });
    JURIES.forEach((L, j) => {
      const pts = [];
      for (let k = 0; k <= 100; k++) pts.push([f.x(k / 100), f.y(majorityCorrect(L, k / 100))]);
      f.plot.append(s('path', { d: linePath(pts), class: `series jury j${j}` }, s('title', {}, `L = ${L}`)));
    });
    f.plot.append(s('line', { x1: f.x(p), x2: f.x(p), y1: f.y(0), y2: f.y(1), class: 'alpha' }));
    const legend = h('ul', { class: 'legend' }, ...JURIES.map((L, j) => h('li', {}, h('span', { class: `swatch line j${j}` }), `L = ${L}`)));
    $('condorcet').replaceChildren(f.root, legend);
    $('cj-readout').textContent = `With p = ${p.toFixed(2)}: ` +
      JURIES.map((L) => `L = ${L}: ${pct(majorityCorrect(L, p))}`).join(' · ');
    $('cj-readout').dataset.l101 = String(majorityCorrect(101, p));
  }

  let sampleSeed = 1;
  const history = [];
  function bootstrap(redraw) {
    const n = Number($('bs-n').value);
    $('bs-n-out').textContent = String(n);
    if (redraw) sampleSeed++;
    const counts = bootstrapCounts(n, rng(sampleSeed * 1013 + n));
    let unique = 0;
    for (const c of counts) if (c) unique++;
    history.push(unique / n);
    if (history.length > 200) history.shift();
    const cols = Math.ceil(Math.sqrt(n * 2));
    const rows = Math.ceil(n / cols);
    const cell = Math.min(26, 440 / cols);
    const svg = frame({ w: 440, h: rows * cell + 30, x: [0, 1], y: [0, 1], title: 'One bootstrap sample', margin: { l: 0, r: 0, t: 0, b: 30 },
      xTicks: [], yTicks: [] });
    svg.root.querySelector('.axes').replaceChildren();
    counts.forEach((c, i) => {
      const cx = (i % cols) * cell + cell / 2;
      const cy = Math.floor(i / cols) * cell + cell / 2;
      svg.plot.append(s('circle', { cx, cy, r: cell * 0.4, class: `boot m${Math.min(c, 3)}` }, s('title', {}, `row ${i + 1}: drawn ${c}×`)));
      if (c > 1 && cell > 14) svg.plot.append(s('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'small on-dark' }, String(c)));
    });
    svg.plot.append(s('text', { x: 0, y: rows * cell + 20, class: 'small' }, 'white: never drawn (out-of-bag) · light: once · dark: twice or more'));
    $('bootstrap').replaceChildren(svg.root);
    const expected = 1 - (1 - 1 / n) ** n;
    const mean = history.reduce((a, b) => a + b, 0) / history.length;
    $('bs-readout').textContent = `This sample: ${unique} of ${n} rows (${pct(unique / n)}) drawn at least once; ` +
      `expected 1 − (1 − 1/n)ⁿ = ${pct(expected)}; limit 1 − 1/e = ${pct(1 - Math.exp(-1))}; ` +
      (history.length > 1 ? `mean over your last ${history.length} samples: ${pct(mean)}.`
        : 'draw more samples to see their mean.');
    $('bs-readout').dataset.unique = String(unique / n);
    $('bs-readout').dataset.samples = String(history.length);
  }

  $('cj-p').addEventListener('input', condorcet);
  $('bs-n').addEventListener('input', () => { history.length = 0; bootstrap(false); });
  $('bs-draw').addEventListener('click', () => bootstrap(true));
  condorcet();
  bootstrap(false);
}
