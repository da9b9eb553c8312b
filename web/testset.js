// View 3, the whole test set: trees used per row, speed-up, disagreement, error versus alpha, the expected
// cost predicted from training data, and for 2-D data a heat map of trees needed over the plane ([HMS11] Fig. 4).
import { sentence } from './explain.js';
import { showRuleProblem } from './rule_bar.js';
import { showCertified } from './certified_answer.js';
import { createTradeoff } from './tradeoff.js';
import { fmt, frame, h, linePath, pct, pending, s, slowGate, viridis } from './charts.js';

const $ = (id) => document.getElementById(id);
const ALPHAS = [0.6, 0.8, 0.9, 0.95, 0.99, 0.995, 0.999, 1];
const GRID = 56;

export function createTestView(app) {
  let generation = 0;
  const tradeoff = createTradeoff(app);

  function note(error, rule) { showRuleProblem($('test-unavailable'), error, rule); }

  function errorRate(classIndex, labels) {
    let wrong = 0;
    for (let i = 0; i < labels.length; i++) if (classIndex[i] !== labels[i]) wrong++;
    return wrong / labels.length;
  }

  function metric(label, value, id) {
    return h('div', {}, h('dt', { text: label }), h('dd', { id, text: value }));
  }

  function renderMetrics(pred, expected) {
    const T = app.forest.numTrees;
    const halted = pred.haltedEarly.reduce((a, b) => a + b, 0) / pred.haltedEarly.length;
    const items = [
      metric('Mean trees used', `${fmt(pred.meanTrees, 1)} of ${T}`, 't-mean'),
      metric('Speed-up', `${(T / pred.meanTrees).toFixed(1)}×`, 't-speedup'),
      metric('Disagreement with the full vote', pct(pred.disagreement, 2), 't-disagree'),
      metric('Test error: halting / full', `${pct(errorRate(pred.classIndex, app.testLabels))} / ${pct(errorRate(app.fullTest.classIndex, app.testLabels))}`, 't-error'),
      metric('Rows stopped early', pct(halted), 't-halted'),
    ];
    if (expected) {
      items.push(metric(`Predicted from training data (${expected.exact ? 'exact' : 'Monte Carlo'})`,
        `${fmt(expected.expectedTrees, 1)} trees, ${pct(expected.disagreement, 2)}`, 't-expected'));
    }
    $('test-metrics').replaceChildren(...items);
    $('test-metrics').dataset.meanTrees = String(pred.meanTrees);
    $('test-metrics').dataset.disagreement = String(pred.disagreement);
  }

  function renderHist(pred) {
    const T = app.forest.numTrees;
    const used = pred.treesUsed;
    const bins = Math.min(50, T);
    const width = T / bins;
    const counts = new Array(bins).fill(0);
    for (const u of used) counts[Math.min(bins - 1, Math.floor((u - 1) / width))]++;
    const yMax = Math.max(...counts);
    const f = frame({ w: 420, h: 220, x: [0, T], y: [0, yMax * 1.08], xLabel: 'trees used', yLabel: 'test rows', title: 'Trees used per test row' });
    counts.forEach((c, i) => {
      if (!c) return;
      f.plot.append(s('rect', { x: f.x(i * width) + 0.5, y: f.y(c), width: Math.max(1, f.x(width) - f.x(0) - 1), height: f.y(0) - f.y(c), class: 'hist' }));
    });
    f.plot.append(s('line', { x1: f.x(pred.meanTrees), x2: f.x(pred.meanTrees), y1: f.y(0), y2: f.y(yMax * 1.08), class: 'alpha' }));
    f.plot.append(s('text', { x: f.x(pred.meanTrees) + 4, y: f.y(yMax) + 2, class: 'small alpha-label' }, `mean ${pred.meanTrees.toFixed(1)}`));
    $('test-hist').replaceChildren(f.root);
  }

  function renderAlpha(rows) {
    const T = app.forest.numTrees;
    const fullErr = errorRate(app.fullTest.classIndex, app.testLabels);
    const yMax = Math.max(0.05, fullErr, ...rows.map((r) => Math.max(r.error, r.disagreement))) * 1.15;
    const xs = (i) => i;
    const f = frame({ w: 420, h: 240, x: [-0.3, rows.length - 0.7], y: [0, yMax], xLabel: 'α', yLabel: 'rate',
      title: 'Error and disagreement versus alpha', xTicks: rows.map((_, i) => i), xFormat: (i) => String(rows[i]?.alpha ?? ''),
      yFormat: (v) => `${Math.round(v * 100)}%`, margin: { r: 44 } });
    const yTrees = (v) => f.y(0) + (f.y(yMax) - f.y(0)) * (v / T);
    f.plot.append(s('line', { x1: f.x(-0.3), x2: f.x(rows.length - 0.7), y1: f.y(fullErr), y2: f.y(fullErr), class: 'ref' }));
    f.plot.append(s('text', { x: f.x(-0.2), y: f.y(fullErr) - 4, class: 'small' }, 'full-vote error'));
    const series = [
      ['error', (r) => f.y(r.error), 'series'],
      ['disagreement', (r) => f.y(r.disagreement), 'series s2'],
      ['mean trees', (r) => yTrees(r.meanTrees), 'series s3'],
    ];
    for (const [name, y, cls] of series) {
      const pts = rows.map((r, i) => [f.x(xs(i)), y(r)]);
      f.plot.append(s('path', { d: linePath(pts), class: cls }, s('title', {}, name)));
      for (const [px, py] of pts) f.plot.append(s('circle', { cx: px, cy: py, r: 3, class: `dot ${cls}` }));
    }
    for (const v of [0, T / 2, T]) {
      f.plot.append(s('text', { x: f.w - f.m.r + 4, y: yTrees(v) + 4, class: 'small' }, String(Math.round(v))));
    }
    const legend = h('ul', { class: 'legend' },
      h('li', {}, h('span', { class: 'swatch line s0' }), 'error'),
      h('li', {}, h('span', { class: 'swatch line s2' }), 'disagreement'),
      h('li', {}, h('span', { class: 'swatch line s3' }), 'mean trees (right axis)'));
    $('test-alpha').replaceChildren(f.root, legend);
  }

  async function renderHeat(opts, my) {
    const fig = $('heat-fig');
    if (!app.is2d || app.forest.numFeatures !== 2 || !app.all) { fig.hidden = true; return; }
    fig.hidden = false;
    const x = app.all.toRowMajor();
    let x0 = Infinity; let x1 = -Infinity; let y0 = Infinity; let y1 = -Infinity;
    for (let i = 0; i < x.length; i += 2) {
      x0 = Math.min(x0, x[i]); x1 = Math.max(x1, x[i]); y0 = Math.min(y0, x[i + 1]); y1 = Math.max(y1, x[i + 1]);
    }
    // A margin of 5 % around the data, so that the points at the edge are drawn inside the map.
    const padX = 0.05 * (x1 - x0 || 1); const padY = 0.05 * (y1 - y0 || 1);
    x0 -= padX; x1 += padX; y0 -= padY; y1 += padY;
    const grid = new Float32Array(GRID * GRID * 2);
    for (let j = 0; j < GRID; j++) {
      for (let i = 0; i < GRID; i++) {
        grid[(j * GRID + i) * 2] = x0 + ((i + 0.5) / GRID) * (x1 - x0);
        grid[(j * GRID + i) * 2 + 1] = y0 + ((j + 0.5) / GRID) * (y1 - y0);
      }
    }
    let pred;
    try {
      const data = { x: grid, options: { rows: GRID * GRID, cols: 2, featureNames: app.forest.featureNames } };
      pred = await app.work('predicting the heat-map grid', (remote) => remote.predict(data, { ...opts, compare: true }), 'grid');
    } catch (e) {
      $('test-heat').replaceChildren(h('p', { class: 'muted small', text: `The heat map cannot be drawn: ${sentence(e)}` }));
      return;
    }
    if (!pred || my !== generation) return;
    const T = app.forest.numTrees;
    const f = frame({ w: 420, h: 420, x: [x0, x1], y: [y0, y1], xLabel: app.forest.featureNames[0], yLabel: app.forest.featureNames[1],
      title: 'Trees needed over the plane', yFormat: (v) => v.toFixed(1), xFormat: (v) => v.toFixed(1), margin: { b: 40 } });
    const cw = (f.x(x1) - f.x(x0)) / GRID;
    const ch = (f.y(y0) - f.y(y1)) / GRID;
    const logT = Math.log(T);
    const g = s('g', {});
    for (let j = 0; j < GRID; j++) {
      for (let i = 0; i < GRID; i++) {
        const k = j * GRID + i;
        g.append(s('rect', { x: f.x(x0) + i * cw, y: f.y(y0) - (j + 1) * ch, width: cw + 0.3, height: ch + 0.3,
          fill: viridis(Math.log(pred.treesUsed[k]) / logT) }));
      }
    }
    f.plot.append(g);
    // Decision boundary of the full vote: edges between grid cells whose full-vote classes differ.
    const edges = [];
    const cls = pred.fullClassIndex;
    for (let j = 0; j < GRID; j++) {
      for (let i = 0; i < GRID; i++) {
        const k = j * GRID + i;
        const px = f.x(x0) + i * cw; const py = f.y(y0) - j * ch;
        if (i + 1 < GRID && cls[k] !== cls[k + 1]) edges.push(`M${(px + cw).toFixed(1)} ${py.toFixed(1)}V${(py - ch).toFixed(1)}`);
        if (j + 1 < GRID && cls[k] !== cls[k + GRID]) edges.push(`M${px.toFixed(1)} ${(py - ch).toFixed(1)}H${(px + cw).toFixed(1)}`);
      }
    }
    f.plot.append(s('path', { d: edges.join(''), class: 'boundary' }));
    const test = app.testDs.toRowMajor();
    for (let i = 0; i < test.length; i += 2) {
      f.plot.append(s('circle', { cx: f.x(test[i]), cy: f.y(test[i + 1]), r: 3, class: `pt c${app.testLabels[i / 2] % 2}` }));
    }
    const scaleBar = h('div', { class: 'ramp' }, h('span', { text: '1 tree' }), h('span', { class: 'ramp-bar' }), h('span', { text: `${T} trees` }));
    const names = app.forest.classNames;
    const points = h('ul', { class: 'legend' },
      h('li', {}, h('span', { class: 'swatch pt-key c0' }), `test rows of class ${names[0]}`),
      h('li', {}, h('span', { class: 'swatch pt-key c1' }), `test rows of class ${names[1]}`));
    $('test-heat').replaceChildren(f.root, scaleBar, points);
    $('test-heat').dataset.cells = String(GRID * GRID);
  }

  /** Error, disagreement and mean trees on the test rows for each α (an α the rule cannot use is left out). */
  async function sweepAlphas(remote, opts, alphas) {
    const labels = app.testLabels;
    const rows = [];
    for (const alpha of alphas) {
      try {
        const p = await remote.predict('test', { ...opts, alpha, compare: true });
        rows.push({ alpha, error: errorRate(p.classIndex, labels), disagreement: p.disagreement, meanTrees: p.meanTrees });
      } catch { /* e.g. an alpha the rule cannot use: the point is left out */ }
    }
    return { rows };
  }

  async function render(force = false) {
    const my = ++generation;
    if (!app.forest || !app.testDs) return;
    note(null);
    const opts = app.haltingOptions();
    let pred;
    try { pred = await app.predictHalting(opts); } catch (e) {
      if (my === generation) { note(e, opts.rule); showCertified($('test-certificate'), null); }
      return;
    }
    if (!pred || my !== generation) return;
    showCertified($('test-certificate'), opts, pred);
    tradeoff(opts, () => my === generation);
    renderMetrics(pred, null);
    renderHist(pred);
    const heat = renderHeat(opts, my);
    // The expected cost (Monte Carlo beyond 4 classes) and the error-versus-alpha sweep (one table per alpha)
    // run in the compute worker. Many classes: each exact table takes seconds, so the sweep waits for a click.
    const cost = app.work('predicting the cost from training data', (remote) => remote.expectedCost({ rule: opts.rule, alpha: opts.alpha }), 'cost').then((value) => {
      if (value && my === generation) renderMetrics(pred, value);
    }, () => { /* no prediction from training data for this rule */ });
    const l = app.forest.classNames.length;
    const slow = (opts.rule === 'optimal' && l > 2) || l >= 4;
    const alphas = slow ? [0.9, 0.99, 1] : ALPHAS;
    if (slow && force !== true) {
      slowGate($('test-alpha'), `Each α needs its own halting table; with ${l} classes and this rule each takes seconds ` +
        'to build (in a worker: the page stays usable).', 'Compute error versus α (3 values)', () => render(true));
      await Promise.all([heat, cost]);
      if (my === generation) $('test-view').dataset.ready = String(my);
      return;
    }
    $('test-alpha').setAttribute('aria-busy', 'true');
    let sweep = null;
    try {
      sweep = await app.work('sweeping α (one table per value)', (remote) => sweepAlphas(remote, opts, alphas), 'sweep');
    } catch (e) {
      $('test-alpha').replaceChildren(h('p', { class: 'muted small', text: `Error versus α cannot be computed: ${sentence(e)}` }));
    }
    $('test-alpha').removeAttribute('aria-busy');
    await Promise.all([heat, cost]);
    if (my !== generation) return;
    if (sweep?.rows.length) renderAlpha(sweep.rows);
    $('test-view').dataset.ready = String(my);
  }

  app.onModel(() => {
    $('test-metrics').replaceChildren();
    pending($('test-hist'), $('test-alpha'));
    $('heat-fig').hidden = true;
    render();
  });
  app.onRule(() => render());
}
