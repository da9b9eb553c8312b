// Rule lp's stopping region ([KM26]'s two-class minimean strategy, forest.stoppingRegion): the states
// (i trees asked, j of them for the second class) drawn as cells, coloured by the class a stop answers where
// the strategy stops, shaded by the stop probability where it stops only sometimes (a randomised cell), and
// open where it keeps asking. The row's path walks through it, as on the staircase of the urn rules.
import { classColor, frame, h, linePath, paintSwatches, s } from '../charts.js';
import { reuse } from './reuse.js';

/**
 * The last i drawn: where every state stops, or else enough columns to show where rows usually stop
 * (three times the expected trees, at least 30), at most 120 and at most N.
 */
function lastColumn(region) {
  const { numTrees: N, stopProbability: stop } = region;
  const enough = Math.max(30, Math.ceil(3 * region.expectedTrees));
  for (let i = 1; i <= Math.min(N, enough); i++) {
    let all = true;
    for (let j = 0; j <= i && all; j++) all = stop[(i * (i + 1)) / 2 + j] === 1;
    if (all) return Math.min(N, Math.max(i + 1, 12));
  }
  return Math.min(N, enough, 120);
}

function build(region, names) {
  const N = lastColumn(region);
  const f = frame({ w: 420, h: 340, x: [0, N + 1], y: [0, N + 1], xLabel: 'trees asked (i)', yLabel: `votes for ${names[1]} (j)`,
    title: 'LP stopping region on the states (i, j)', margin: { l: 44, b: 40, r: 14 } });
  const cw = f.x(1) - f.x(0);
  const cell = (i, j) => `M${f.x(i).toFixed(1)} ${f.y(j + 1).toFixed(1)}h${(cw + 0.6).toFixed(2)}v${(cw + 0.6).toFixed(2)}h${(-cw - 0.6).toFixed(2)}z`;
  const open = [];
  const sure = [[], []];
  let randomised = 0;
  for (let i = 1; i <= N; i++) {
    for (let j = 0; j <= i; j++) {
      const r = (i * (i + 1)) / 2 + j;
      const p = region.stopProbability[r];
      if (p === 0) open.push(cell(i, j));
      else if (p === 1) sure[region.answer[r]].push(cell(i, j));
      else {
        randomised++;
        f.plot.append(s('path', { d: cell(i, j), class: 'cell stop randomised', fill: classColor(region.answer[r]), 'fill-opacity': p.toFixed(3),
          'data-p': p.toFixed(4) }, s('title', {}, `(${i}, ${j}): stops with probability ${p.toFixed(3)}`)));
      }
    }
  }
  f.plot.prepend(s('path', { d: open.join(''), class: 'cell open' }),
    ...sure.map((d, c) => s('path', { d: d.join(''), class: 'cell stop', fill: classColor(c) })));
  const path = s('path', { class: 'path' });
  const dot = s('circle', { r: Math.max(3, cw * 0.45), class: 'dot' });
  f.plot.append(path, dot);
  const legend = h('ul', { class: 'legend' },
    ...[0, 1].map((c) => h('li', {}, h('span', { class: 'swatch cell-stop', 'data-color': classColor(c) }), `stop, answer ${names[c]}`)),
    h('li', {}, h('span', { class: 'swatch cell-open' }), 'keep asking'),
    ...(randomised ? [h('li', { text: `${randomised} randomised cell${randomised === 1 ? '' : 's'}, paler by the chance of stopping there` })] : []));
  paintSwatches(legend);
  const cut = N < region.numTrees ? h('p', { class: 'small muted', text: `Drawn: the first ${N} of ${region.numTrees} trees ` +
    `(a row asks ${region.expectedTrees.toFixed(1)} on average).` }) : null;
  const root = h('div', { class: 'lp-region', 'data-cells': String(open.length + sure[0].length + sure[1].length + randomised),
    'data-randomised': String(randomised), 'data-columns': String(N) }, f.root, legend, cut);
  return { root, f, path, dot, N };
}

/**
 * Draws `region` (forest.stoppingRegion({rule: 'lp', alpha})) into `container`, with class names `names`
 * (two), and the path of a row whose votes in query order are `votes` (0/1; may be empty) after `drawn`
 * of them; `halted`: the dot marks the stop. The picture is rebuilt only when `region` changes.
 */
export function render(container, { region, names, votes = [], drawn = 0, halted = false }) {
  const { f, path, dot, N } = reuse(container, region, () => build(region, names));
  const pts = [[f.x(0.5), f.y(0.5)]];
  let j = 0;
  for (let i = 1; i <= Math.min(drawn, N); i++) {
    j += votes[i - 1] === 1 ? 1 : 0;
    pts.push([f.x(i + 0.5), f.y(j + 0.5)]);
  }
  path.setAttribute('d', linePath(pts));
  const [x, y] = pts[pts.length - 1];
  dot.setAttribute('cx', x);
  dot.setAttribute('cy', y);
  dot.setAttribute('class', halted ? 'stop-dot' : 'dot');
  dot.style.display = votes.length ? '' : 'none'; // no row: the region alone
}
