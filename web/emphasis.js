// View 5d, vote-boosting's emphasis function ([SMS18] Eqs. 5-9): g(p) = p^(a-1) (1-p)^(b-1) over the
// Laplace-corrected vote share p, and the training weights it gives with the current model's votes on its
// training rows (the weights the next vote-boosted tree would be drawn with). Two classes: p is the share
// of class index 1 ("+", as in the paper); more classes: the share of the leading class (docs/voteboost.md).
// The shares, the weights and the grid of a = b values come from the library (emphasisWeights, emphasisGrid);
// the page only draws g(p).
import { frame, h, linePath, pct, s } from './charts.js';

const $ = (id) => document.getElementById(id);
const BINS = 20;
const Y_MAX = 6;

/** log g(p) for the beta-shaped emphasis (normalising constant dropped: weights are normalised anyway). */
export function logEmphasis(p, a, b) { return (a - 1) * Math.log(p) + (b - 1) * Math.log(1 - p); }

/**
 * The next vote-boosted tree's sampling weights of the training rows whose full votes are `votes` (rows × l,
 * T trees) under emphasis (a, b), from the library `lib` (init()'s API; the core's VoteBoostShares and
 * VoteBoostWeights): {share: each row's Laplace-corrected vote share p, weights: w ∝ g(p), summing to 1}.
 */
export function nextTreeWeights(lib, votes, l, T, a, b) { return lib.emphasisWeights(votes, l, { a, b, trees: T }); }

/** The a (or b) of a slider position: the library's grid of a = b values ([SMS18] §4), 1 when out of range. */
export function gridValue(lib, position) { return lib.emphasisGrid()[position] ?? 1; }

export function createEmphasisView(app) {
  let trainVotes = { version: -1, votes: null }; // full vote of the current model on its training rows
  const value = (id) => gridValue(app.uf, Number($(id).value));

  function params() {
    if ($('em-sym').checked) $('em-b').value = $('em-a').value;
    $('em-b').disabled = $('em-sym').checked;
    const a = value('em-a');
    const b = value('em-b');
    $('em-a-out').textContent = String(a);
    $('em-b-out').textContent = String(b);
    $('em-a').setAttribute('aria-valuetext', `a = ${a}`);
    $('em-b').setAttribute('aria-valuetext', `b = ${b}`);
    return { a, b };
  }

  function drawCurve(a, b) {
    // Relative weight: g divided by its mean over the vote shares a 101-tree ensemble can produce.
    const T = 101;
    let mean = 0;
    for (let k = 0; k <= T; k++) mean += Math.exp(logEmphasis((k + 1) / (T + 2), a, b));
    mean /= T + 1;
    const pts = [];
    const f = frame({ w: 440, h: 230, x: [0, 1], y: [0, Y_MAX], xLabel: 'p: share of votes for the leading (binary: “+”) class',
      yLabel: 'relative weight g(p)', title: `Emphasis function, a = ${a}, b = ${b}`,
      xFormat: (v) => v.toFixed(1), yTicks: [0, 1, 2, 4, 6] });
    for (let k = 0; k <= 200; k++) {
      const p = 0.005 + (0.99 * k) / 200;
      pts.push([f.x(p), f.y(Math.min(Y_MAX, Math.exp(logEmphasis(p, a, b)) / mean))]);
    }
    f.plot.append(s('line', { x1: f.x(0), x2: f.x(1), y1: f.y(1), y2: f.y(1), class: 'ref' }));
    f.plot.append(s('path', { d: linePath(pts), class: 'series s1 emphasis-curve' }, s('title', {}, 'g(p), relative to its mean')));
    $('emphasis').replaceChildren(f.root);
    const box = $('emphasis');
    box.dataset.a = String(a);
    box.dataset.b = String(b);
    // g(1/4) / g(1/2): below 1 when uncertain rows (p near 1/2) get more weight, above 1 when confident ones do.
    box.dataset.ratio = String(Math.exp(logEmphasis(0.25, a, b) - logEmphasis(0.5, a, b)));
  }

  function drawWeights(a, b) {
    const box = $('emphasis-weights');
    if (!app.forest || !app.trainDs) {
      box.replaceChildren(h('p', { class: 'small muted', text: 'Train a model to see the weights its votes would give.' }));
      $('em-readout').textContent = '';
      return;
    }
    const l = app.forest.classNames.length;
    const T = app.forest.numTrees;
    if (trainVotes.version !== app.version) trainVotes = { version: app.version, votes: app.forest.predict(app.trainDs).votes };
    const { votes } = trainVotes;
    const { share: p, weights: w } = nextTreeWeights(app.uf, votes, l, T, a, b);
    const rows = new Float64Array(BINS);
    const weight = new Float64Array(BINS);
    for (let i = 0; i < p.length; i++) {
      const bin = Math.min(BINS - 1, Math.floor(p[i] * BINS));
      rows[bin] += 1 / p.length;
      weight[bin] += w[i];
    }
    const yMax = Math.max(...rows, ...weight) * 1.1;
    const f = frame({ w: 440, h: 220, x: [0, 1], y: [0, yMax], xLabel: `p of each training row (${T} trees)`, yLabel: 'share',
      title: 'Training rows and their weight by vote share', xFormat: (v) => v.toFixed(1), yFormat: (v) => `${Math.round(v * 100)}%` });
    const bw = (f.x(1) - f.x(0)) / BINS;
    for (let k = 0; k < BINS; k++) {
      const x0 = f.x(k / BINS);
      if (rows[k]) f.plot.append(s('rect', { x: x0 + 1, y: f.y(rows[k]), width: bw / 2 - 1, height: f.y(0) - f.y(rows[k]), class: 'hist muted-bar' }));
      if (weight[k]) f.plot.append(s('rect', { x: x0 + bw / 2, y: f.y(weight[k]), width: bw / 2 - 1, height: f.y(0) - f.y(weight[k]), class: 'hist weight-bar' }));
    }
    const legend = h('ul', { class: 'legend' },
      h('li', {}, h('span', { class: 'swatch muted-bar' }), 'share of training rows'),
      h('li', {}, h('span', { class: 'swatch weight-bar' }), 'share of the next tree\'s sampling weight'));
    box.replaceChildren(f.root, legend);
    let top = 0;
    const sorted = Float64Array.from(w).sort().reverse();
    const tenth = Math.max(1, Math.round(w.length / 10));
    for (let i = 0; i < tenth; i++) top += sorted[i];
    box.dataset.topDecile = String(top);
    $('em-readout').textContent = `With a = ${a}, b = ${b}, the ${tenth} most emphasised training rows (10 %) carry ` +
      `${pct(top)} of the weight (${pct(0.1)} would be uniform).`;
  }

  function render() {
    const { a, b } = params();
    drawCurve(a, b);
    drawWeights(a, b);
  }

  for (const id of ['em-a', 'em-b', 'em-sym']) $(id).addEventListener('input', render);
  app.onModel(render);
  render();
}
