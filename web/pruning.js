// View 5c, static pruning by ordered aggregation ([Sot11] Fig. 3.1): the trained ensemble's trees
// reordered by a heuristic (forest.order) and the error of the first u trees, u = 1..T (forest.errorCurve),
// on the training and the held-out rows, against the same curves in training order. The papers order bagged
// CART pruned by cost-complexity on the training rows (docs/pruning.md "Protocol"); trees grown to purity are
// each right on their in-bag rows, so for them the view orders on out-of-bag votes where the core can
// ('boosting', 'early') and says why. The pruning point, the library's default keep ⌈0.2 T⌉ (21 of 101), is
// marked. Runs in the worker.
import { fmt, frame, h, linePath, pct, pending, s } from './charts.js';
import { sentence } from './explain.js';

const $ = (id) => document.getElementById(id);

/**
 * Trees kept by static pruning of `T` trees: the library's default (uf.defaultKeep, the core's DefaultKeep),
 * the first ⌈20 %⌉ of the ordered ensemble, at least one.
 */
export function pruneKeep(uf, T) { return uf.defaultKeep(T); }

/**
 * What the ordering is evaluated on for a model with `learner` (forest.learner) and `ordering`, and why:
 * { on: 'data' | 'oob', note }. Trees grown to purity (learner.grownToPurity, the library's definition: no
 * cost-complexity pruning, depth or leaf limit, no pruned or stump base) fit their bootstrap samples, so their
 * training votes cannot tell them apart.
 */
export function orderingBase(learner, ordering) {
  if (!learner.grownToPurity) {
    return { on: 'data', note: 'Ordered on the training rows, as the papers do with bagged CART pruned by cost-complexity.' };
  }
  const bootstrap = learner.ensemble === 'rf' || learner.ensemble === 'bagging';
  const why = 'These trees are unpruned: each is right on the training rows it was grown on, so their training votes ' +
    'barely tell them apart (the training curves sit near 0).';
  if (bootstrap && (ordering === 'boosting' || ordering === 'early')) {
    return { on: 'oob', note: `${why} Ordered on out-of-bag votes instead: each tree is judged on the training rows its bootstrap sample left out. The papers' base is bagged CART pruned by cost-complexity (treePruning 'cv').` };
  }
  return { on: 'data', note: `${why} This ordering can only use the training votes here, so it has little to choose from; the papers' base is bagged CART pruned by cost-complexity (treePruning 'cv'), and the boosting-based ordering can use out-of-bag votes.` };
}

export function createPruningView(app) {
  const box = $('pruning');

  function message(text) {
    box.replaceChildren(h('p', { class: 'small muted', text }));
    box.dataset.state = 'empty';
  }

  function draw({ train, test, trainBase, testBase, ordering, ms, base }) {
    const T = train.length;
    const keep = pruneKeep(app.uf, T);
    const all = [train, test, trainBase, testBase];
    const yMax = Math.max(0.02, ...all.map((c) => Math.max(...c))) * 1.08;
    const f = frame({ w: 440, h: 260, x: [1, T], y: [0, yMax], xLabel: 'trees aggregated (u)', yLabel: 'error',
      title: 'Error versus number of trees', yFormat: (v) => `${Math.round(v * 100)}%`,
      desc: `Error of the first u trees, u = 1 to ${T}, in the ${ordering} order and in training order, on training and test rows.` });
    const xs = (i) => f.x(i + 1);
    const series = [
      [trainBase, 'series base dashed', 'training order, train'],
      [testBase, 'series base', 'training order, test'],
      [train, 'series s0 dashed', `${ordering} order, train`],
      [test, 'series s0', `${ordering} order, test`],
    ];
    for (const [curve, cls, name] of series) {
      const path = s('path', { d: linePath(Array.from(curve, (e, i) => [xs(i), f.y(e)])), class: cls }, s('title', {}, name));
      path.dataset.points = String(curve.length);
      f.plot.append(path);
    }
    const kx = xs(keep - 1);
    f.plot.append(s('line', { x1: kx, x2: kx, y1: f.y(0), y2: f.y(yMax), class: 'alpha keep' }));
    f.plot.append(s('circle', { cx: kx, cy: f.y(test[keep - 1]), r: 4, class: 'dot s0 keep-dot' }, s('title', {}, `keep ${keep}`)));
    f.plot.append(s('text', { x: kx + 4, y: f.y(yMax) + 12, class: 'small alpha-label' }, `keep ${keep} = ⌈20 %⌉`));
    const legend = h('ul', { class: 'legend' },
      h('li', {}, h('span', { class: 'swatch line s0' }), `${ordering} order (solid: test, dashed: train)`),
      h('li', {}, h('span', { class: 'swatch line base' }), 'training order'));
    box.replaceChildren(f.root, legend);
    box.dataset.state = 'ready';
    box.dataset.points = String(T);
    box.dataset.keep = String(keep);
    box.dataset.ordering = ordering;
    box.dataset.on = base.on;
    $('prune-readout').textContent = `Test error with all ${T} trees: ${pct(test[T - 1])}; the first ${keep} trees in ` +
      `${ordering} order: ${pct(test[keep - 1])} (training order: ${pct(testBase[keep - 1])}). Ordering took ${fmt(ms, 0)} ms in the worker. ` +
      base.note;
  }

  /**
   * The trees' order by `ordering` on the training rows and the error curves it gives on the training and
   * test rows, with the same curves in training order (the reference every ordering is compared with).
   */
  async function curves(remote, ordering, T, on) {
    const t0 = performance.now();
    const order = await remote.order('train', { ordering, on });
    const [train, test] = await Promise.all([remote.errorCurve('train', order), remote.errorCurve('test', order)]);
    const ms = performance.now() - t0;
    const asTrained = Int32Array.from({ length: T }, (_, i) => i);
    const [trainBase, testBase] = await Promise.all([remote.errorCurve('train', asTrained), remote.errorCurve('test', asTrained)]);
    return { order, train, test, trainBase, testBase, ms };
  }

  async function render() {
    if (!app.forest) { message('Train a model to see its pruning curve.'); return; }
    if (!app.testDs) { message('A model loaded from a file has no training rows to order its trees with.'); return; }
    const ordering = $('prune-ordering').value;
    const base = orderingBase(app.forest.learner, ordering);
    box.dataset.state = 'building';
    box.setAttribute('aria-busy', 'true');
    try {
      const msg = await app.work('ordering the trees', (remote) => curves(remote, ordering, app.forest.numTrees, base.on), 'pruning');
      if (msg) draw({ ...msg, ordering, base });
    } catch (e) {
      message(`The pruning curve cannot be computed: ${sentence(e)}`);
    } finally {
      box.removeAttribute('aria-busy');
    }
  }

  $('prune-ordering').addEventListener('change', render);
  app.onModel(() => {
    if (app.forest && app.testDs) pending(box);
    $('prune-readout').textContent = '';
    render();
  });
}
