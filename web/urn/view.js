// View 2, the urn: one test row's T tree votes become T marbles, drawn one by one until the halting table
// says stop. Everything shown comes from the library (forest.trace for the draw order and P*, forest.predict
// for treesUsed, forest.haltingTable for the staircase, forest.prior for the posterior bars) except the
// posterior over final tallies, computed on the page from the prior's finalTallyMass as in [SSM16] §2.
import { classColor, errText, fmt, frame, h, linePath, paintSwatches, pending, s, svgRoot } from '../charts.js';
import { MAX_POSTERIOR_TALLIES, numTallies, rng } from '../math.js';

const $ = (id) => document.getElementById(id);

export function createUrnView(app) {
  const root = $('urn');
  const view = {
    row: 0, // index into the test rows
    trace: null,
    treesUsed: 0, // from forest.predict(testDs, opts): what the library uses for this row
    drawn: 0,
    timer: null,
    marbles: [],
    error: null,
    loadedKey: '', // model version, row and options of the trace shown
  };

  const controls = ['urn-row', 'urn-random', 'urn-hard', 'urn-play', 'urn-step', 'urn-reset', 'urn-finish', 'urn-speed', 'urn-peek'];
  function enable(on) { for (const id of controls) $(id).disabled = !on; }
  enable(false);

  function setState(state) {
    root.dataset.state = state;
    root.dataset.drawn = String(view.drawn);
    $('urn-play').textContent = state === 'playing' ? 'Pause' : 'Play';
    $('urn-play').setAttribute('aria-pressed', state === 'playing' ? 'true' : 'false');
  }

  function stop() {
    if (view.timer) clearInterval(view.timer);
    view.timer = null;
  }

  function unavailable(message) {
    stop();
    const note = $('urn-unavailable');
    note.hidden = !message;
    note.textContent = message ?? '';
  }

  // ---- loading a row --------------------------------------------------------------------------

  let loadGeneration = 0;

  /** Loads the current row's trace and the rule's prediction from the worker (which builds the table). */
  async function load({ keep = false } = {}) {
    // keep: a change event for the row already shown (e.g. the row box losing focus) keeps the draw as it is.
    const wanted = `${app.version}|${(Number($('urn-row').value) || 1) - 1}|${JSON.stringify(app.haltingOptions())}`;
    if (keep && view.trace && wanted === view.loadedKey) return;
    view.loadedKey = '';
    const my = ++loadGeneration;
    stop();
    view.trace = null;
    view.drawn = 0;
    view.error = null;
    lattice.f = null;
    if (!app.forest || !app.testDs) { enable(false); setState('empty'); return; }
    unavailable(null);
    const nTest = app.testDs.numRows;
    $('urn-row').max = String(nTest);
    view.row = Math.min(nTest - 1, Math.max(0, (Number($('urn-row').value) || 1) - 1));
    $('urn-row').value = String(view.row + 1);
    const opts = app.haltingOptions();
    enable(false);
    setState('building');
    if (view.shownVersion !== app.version || view.shownRule !== opts.rule) {
      // The pictures of another model or rule must not stay up while this one is computed.
      pending($('urn-posterior'), $('urn-lattice'));
    }
    view.shownVersion = app.version;
    view.shownRule = opts.rule;
    $('urn-caption').textContent = `Asking the worker for row ${view.row + 1} (it builds the ${opts.rule} table first if needed; the page stays usable).`;
    let trace;
    let pred;
    try {
      [trace, pred] = await Promise.all([app.trace(view.row, opts), app.predictHalting(opts)]);
      if (my !== loadGeneration) return;
      if (!trace || !pred) return; // superseded: a newer load follows
    } catch (e) {
      if (my !== loadGeneration) return;
      view.error = e;
      enable(false);
      $('urn-row').disabled = false;
      $('urn-random').disabled = false;
      root.dataset.rule = opts.rule;
      setState('error');
      unavailable(`This rule cannot be used here: ${errText(e)}`);
      renderAll();
      return;
    }
    view.trace = trace;
    view.treesUsed = pred.treesUsed[view.row];
    view.loadedKey = `${app.version}|${view.row}|${JSON.stringify(opts)}`;
    enable(true);
    root.dataset.row = String(view.row);
    root.dataset.treesUsed = String(view.treesUsed);
    root.dataset.traceTreesUsed = String(view.trace.treesUsed);
    root.dataset.rule = opts.rule;
    root.dataset.alpha = String(opts.alpha);
    buildUrn();
    setState('ready');
    renderAll();
    buildLattice(my).catch((e) => {
      $('urn-lattice').replaceChildren(h('p', { class: 'muted small', text: `No table: ${errText(e)}` }));
    });
  }

  // ---- the urn picture --------------------------------------------------------------------------

  const W = 560;
  const H = 300;
  const URN = { x: 20, y: 40, w: 250, h: 240 }; // inner box of the jar
  const TRAY = { x: 300, y: 40, w: 240, h: 240 };

  function buildUrn() {
    const T = view.trace.votes.length;
    let cell = Math.floor(Math.sqrt((URN.w * URN.h) / T));
    while (cell > 3 && Math.ceil(T / Math.floor(URN.w / cell)) * cell > URN.h) cell -= 0.5;
    const cols = Math.floor(URN.w / cell);
    const trayCols = Math.floor(TRAY.w / cell);
    const r = cell * 0.42;
    // Slots fill the jar from the bottom; marble k (k-th in query order) sits in a shuffled slot.
    const slots = Array.from({ length: T }, (_, i) => i);
    const rand = rng(view.row * 31 + 7);
    for (let i = T - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [slots[i], slots[j]] = [slots[j], slots[i]]; }
    const svg = svgRoot(W, H, 'The urn of tree votes',
      `${T} marbles, one per tree; drawn marbles move to the tray on the right in the order the trees are asked.`);
    svg.classList.add('urn-svg');
    // The jar: a rounded body with a neck.
    svg.append(s('path', {
      class: 'jar',
      d: `M${URN.x + 60} ${URN.y - 22} L${URN.x + 60} ${URN.y - 4} Q${URN.x - 10} ${URN.y} ${URN.x - 10} ${URN.y + 60} ` +
        `L${URN.x - 10} ${URN.y + URN.h - 10} Q${URN.x - 10} ${URN.y + URN.h + 12} ${URN.x + 20} ${URN.y + URN.h + 12} ` +
        `L${URN.x + URN.w - 20} ${URN.y + URN.h + 12} Q${URN.x + URN.w + 10} ${URN.y + URN.h + 12} ${URN.x + URN.w + 10} ${URN.y + URN.h - 10} ` +
        `L${URN.x + URN.w + 10} ${URN.y + 60} Q${URN.x + URN.w + 10} ${URN.y} ${URN.x + URN.w - 60} ${URN.y - 4} L${URN.x + URN.w - 60} ${URN.y - 22}`,
    }));
    svg.append(s('text', { x: URN.x + URN.w / 2, y: URN.y - 28, 'text-anchor': 'middle', class: 'small' }, 'urn: trees not asked yet'));
    svg.append(s('rect', { x: TRAY.x - 6, y: TRAY.y - 6, width: TRAY.w + 12, height: TRAY.h + 12, rx: 10, class: 'tray' }));
    svg.append(s('text', { x: TRAY.x + TRAY.w / 2, y: TRAY.y - 28, 'text-anchor': 'middle', class: 'small' }, 'drawn, in the order asked'));
    const g = s('g', { class: 'marbles' });
    view.marbles = [];
    for (let k = 0; k < T; k++) {
      const slot = slots[k];
      const ux = URN.x + (slot % cols) * cell + cell / 2;
      const uy = URN.y + URN.h - Math.floor(slot / cols) * cell - cell / 2;
      const tx = TRAY.x + (k % trayCols) * cell + cell / 2;
      const ty = TRAY.y + Math.floor(k / trayCols) * cell + cell / 2;
      const c = s('circle', { cx: ux, cy: uy, r, class: 'marble hidden' });
      c.dataset.dx = String(tx - ux);
      c.dataset.dy = String(ty - uy);
      g.append(c);
      view.marbles.push(c);
    }
    svg.append(g);
    $('urn-svg').replaceChildren(svg);
  }

  function paintMarbles() {
    const peek = $('urn-peek').checked || root.dataset.state === 'halted';
    const votes = view.trace.votes;
    view.marbles.forEach((m, k) => {
      const drawn = k < view.drawn;
      const color = classColor(votes[k]);
      if (drawn) {
        m.setAttribute('class', 'marble drawn');
        m.style.fill = color;
        m.style.transform = `translate(${m.dataset.dx}px, ${m.dataset.dy}px)`;
      } else {
        m.setAttribute('class', `marble ${peek ? 'peek' : 'hidden'}`);
        m.style.fill = peek ? color : '';
        m.style.transform = '';
      }
    });
  }

  // ---- the side panels ---------------------------------------------------------------------------

  function tallyAt(n) {
    const l = app.forest.classNames.length;
    const t = new Array(l).fill(0);
    for (let k = 0; k < n; k++) t[view.trace.votes[k]]++;
    return t;
  }

  function renderTally(t) {
    const names = app.forest.classNames;
    const full = view.trace.fullVotes;
    const halted = root.dataset.state === 'halted';
    const max = Math.max(1, ...t);
    const order = names.map((_, i) => i).filter((i) => t[i] > 0 || full[i] > 0 || names.length <= 6);
    const list = h('table', { class: 'tally-table' });
    list.append(h('caption', { text: `Running tally after ${view.drawn} draws` }));
    const head = list.createTHead().insertRow();
    for (const c of ['class', 'drawn', '', halted ? 'all trees' : '']) head.append(h('th', { scope: 'col', text: c }));
    const body = list.createTBody();
    for (const i of order) {
      const tr = body.insertRow();
      tr.append(h('th', { scope: 'row' }, h('span', { class: 'swatch', 'data-color': classColor(i) }), names[i]));
      tr.append(h('td', { class: 'num', text: String(t[i]) }));
      const bar = h('span', { class: 'bar', 'data-color': classColor(i) });
      bar.style.width = `${(100 * t[i]) / max}%`;
      tr.append(h('td', { class: 'barcell' }, bar));
      tr.append(h('td', { class: 'num muted', text: halted ? String(full[i]) : '' }));
    }
    $('urn-tally').replaceChildren(list);
    paintSwatches($('urn-tally'));
  }

  function renderVerdict(t) {
    const names = app.forest.classNames;
    const tr = view.trace;
    const T = tr.votes.length;
    const box = $('urn-verdict');
    const opts = app.haltingOptions();
    const conf = view.drawn > 0 ? tr.confidence[view.drawn - 1] : NaN;
    let leader = -1;
    let best = -1;
    t.forEach((v, i) => { if (v > best) { best = v; leader = i; } else if (v === best) leader = -1; });
    if (root.dataset.state === 'halted') {
      const agrees = tr.classIndex === tr.fullClassIndex;
      root.dataset.agrees = agrees ? 'yes' : 'no';
      const sorted = Array.from(tr.fullVotes).sort((a, b) => b - a);
      box.replaceChildren(
        h('p', { class: 'big' }, tr.haltedEarly
          ? `Stopped after ${view.drawn} of ${T} trees: ${tr.label}.`
          : `All ${T} trees drawn: no early stop.`),
        h('p', {}, tr.haltedEarly
          ? `P* = ${fmt(conf, 4)} ≥ α = ${opts.alpha}. That is ${(T / view.drawn).toFixed(1)}× fewer trees than the full vote.`
          : 'The vote stayed too close for the rule to be sure before the end.'),
        h('p', { class: agrees ? 'ok' : 'bad' },
          `The full vote of all ${T} trees says ${names[tr.fullClassIndex]} (${sorted.slice(0, 2).join('–')}): `,
          h('strong', { text: agrees ? 'it agrees ✓' : 'it disagrees ✗ (this is the rare 1 − α case)' })),
        h('p', { class: 'muted small', text: `Library: treesUsed = ${view.treesUsed} for this row (forest.predict); marbles drawn = ${view.drawn}.` }),
      );
    } else if (view.drawn === 0) {
      box.replaceChildren(h('p', {}, `${T} marbles, colours unknown until drawn. Press Play or Step.`));
    } else {
      box.replaceChildren(
        h('p', { class: 'big' }, `Drawn ${view.drawn} of ${T}.`),
        h('p', {}, leader >= 0 ? `Leader: ${names[leader]}. P* = ${fmt(conf, 4)} < α = ${opts.alpha}: keep drawing.`
          : 'A tie: no leader, keep drawing.'),
      );
    }
  }

  /** Computes the posterior after the current draw (the latest request wins) and draws it. */
  async function renderPosterior(t) {
    const el = $('urn-posterior');
    const key = view.loadedKey;
    const drawn = view.drawn;
    const opts = app.haltingOptions();
    let msg;
    try { msg = await app.posterior(opts.rule, Int32Array.from(t)); } catch { msg = { value: null }; }
    if (!msg || key !== view.loadedKey || drawn !== view.drawn || !view.trace) return;
    const post = msg.value;
    const names = app.forest.classNames;
    const l = names.length;
    const T = view.trace.votes.length;
    if (!post) {
      el.replaceChildren(h('p', { class: 'muted small', text: numTallies(l, T) > MAX_POSTERIOR_TALLIES
        ? `With ${l} classes the ${numTallies(l, T).toExponential(1)} possible final tallies are too many to list; the rule's P* (right) still applies.`
        : 'No final-tally prior for this rule.' }));
      el.dataset.drawn = String(drawn);
      return;
    }
    const libConf = view.drawn > 0 ? view.trace.confidence[view.drawn - 1] : NaN;
    if (l === 2) {
      const yMax = Math.max(1e-9, ...post.l2);
      const f = frame({ w: 420, h: 220, x: [0, T + 1], y: [0, yMax * 1.05], xLabel: `final votes for ${names[0]} (T₁)`, yLabel: 'P(T₁ | drawn)',
        title: 'Posterior over the final tally', yFormat: (v) => v.toFixed(2), margin: { l: 50 } });
      const bw = Math.max(0.5, f.x(1) - f.x(0) - 0.5);
      for (let v = 0; v <= T; v++) {
        if (post.l2[v] <= 0) continue;
        const winner = 2 * v > T ? 0 : 2 * v < T ? 1 : -1;
        f.plot.append(s('rect', { x: f.x(v), y: f.y(post.l2[v]), width: bw, height: f.y(0) - f.y(post.l2[v]),
          fill: winner < 0 ? '#999' : classColor(winner) }));
      }
      f.plot.append(s('line', { x1: f.x(T / 2 + 0.5), x2: f.x(T / 2 + 0.5), y1: f.y(0), y2: f.y(yMax * 1.05), class: 'midline' }));
      f.plot.append(s('text', { x: f.x(T / 2 + 0.5) + 4, y: f.y(yMax) + 4, class: 'small' }, `${names[1]} wins ← | → ${names[0]} wins`));
      el.replaceChildren(f.root);
    } else {
      const f = frame({ w: 420, h: 220, x: [0, l], y: [0, 1], yLabel: 'P(wins the full vote | drawn)', title: 'Posterior probability of each final winner',
        xTicks: [], yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1], yFormat: (v) => v.toFixed(1) });
      for (let i = 0; i < l; i++) {
        f.plot.append(s('rect', { x: f.x(i) + 6, y: f.y(post.win[i]), width: f.x(1) - f.x(0) - 12, height: f.y(0) - f.y(post.win[i]), fill: classColor(i) }));
        f.plot.append(s('text', { x: f.x(i + 0.5), y: f.y(0) + 16, 'text-anchor': 'middle', class: 'small' }, names[i].slice(0, 12)));
      }
      el.replaceChildren(f.root);
    }
    el.append(h('p', { class: 'small', text: view.drawn === 0 ? 'Before any draw this is the prior.'
      : `P* from these bars: ${fmt(post.agree, 4)}; the library's P*: ${fmt(libConf, 4)}` +
        (['infinite', 'alpha1', 'optimal'].includes(app.haltingOptions().rule) ? ' (this rule defines its own confidence).' : '.') }));
    el.dataset.drawn = String(drawn);
  }

  function renderPStar() {
    const tr = view.trace;
    const T = tr.votes.length;
    const opts = app.haltingOptions();
    const xMax = Math.min(T, Math.max(12, Math.ceil(tr.treesUsed * 1.3) + 2));
    const f = frame({ w: 420, h: 220, x: [0, xMax], y: [0, 1], xLabel: 'marbles drawn (t)', yLabel: 'P*', title: 'Agreement probability after each draw',
      yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1], yFormat: (v) => v.toFixed(1) });
    f.plot.append(s('line', { x1: f.x(0), x2: f.x(xMax), y1: f.y(opts.alpha), y2: f.y(opts.alpha), class: 'alpha' }));
    f.plot.append(s('text', { x: f.x(xMax) - 4, y: f.y(opts.alpha) - 5, 'text-anchor': 'end', class: 'small alpha-label' }, `α = ${opts.alpha}`));
    const n = Math.min(view.drawn, tr.confidence.length);
    const pts = [];
    for (let k = 0; k < n && k < xMax; k++) pts.push([f.x(k + 1), f.y(Math.max(0, Math.min(1, tr.confidence[k])))]);
    if (pts.length) {
      f.plot.append(s('path', { d: linePath(pts), class: 'series' }));
      for (const [px, py] of pts.length < 80 ? pts : []) f.plot.append(s('circle', { cx: px, cy: py, r: 2.5, class: 'dot' }));
      const [lx, ly] = pts[pts.length - 1];
      f.plot.append(s('circle', { cx: lx, cy: ly, r: 5, class: root.dataset.state === 'halted' && tr.haltedEarly ? 'stop-dot' : 'dot' }));
    }
    $('urn-pstar').replaceChildren(f.root);
  }

  // The lattice is built once per row and rule (one halts() lookup per cell); each draw only moves the path.
  const lattice = { key: '', f: null, path: null, dot: null, N: 0, c: 0, cw: 0 };

  async function buildLattice(my) {
    const tr = view.trace;
    const names = app.forest.classNames;
    const l = names.length;
    const T = tr.votes.length;
    const opts = app.haltingOptions();
    lattice.key = '';
    const N = Math.min(T, Math.max(16, Math.min(120, tr.treesUsed + 8)));
    // Axes: l = 2: x = votes for class 0, y = votes for class 1. l > 2: x = votes for all other classes, y =
    // votes for the row's answer c; the shading puts every other vote on the runner-up r of the full vote.
    const c = tr.classIndex;
    let r = -1;
    for (let i = 0; i < l; i++) if (i !== c && (r < 0 || tr.fullVotes[i] > tr.fullVotes[r])) r = i;
    // Every cell (a, b) of the lattice as a tally; the worker answers halts() for all of them at once.
    const cells = [];
    for (let a = 0; a <= N; a++) {
      for (let b = 0; a + b <= T && b <= N; b++) {
        const side = l === 2 ? (a > b ? 0 : b > a ? 1 : -1) : (b > a ? 1 : a > b ? 0 : -1);
        cells.push([a, b, side]);
      }
    }
    const tallies = new Int32Array(cells.length * l);
    cells.forEach(([a, b], i) => {
      if (l === 2) { tallies[i * 2] = a; tallies[i * 2 + 1] = b; } else { tallies[i * l + r] = a; tallies[i * l + c] = b; }
    });
    const halts = await app.halts(opts, tallies, 'lattice');
    if (halts === null || my !== loadGeneration) return;
    const xName = l === 2 ? `votes for ${names[0]}` : `votes for other classes (shading: all on ${names[r]})`;
    const yName = l === 2 ? `votes for ${names[1]}` : `votes for ${names[c]}`;
    const f = frame({ w: 420, h: 340, x: [0, N + 1], y: [0, N + 1], xLabel: xName, yLabel: yName, title: 'Halting table on the tally lattice',
      margin: { l: 44, b: 40, r: 112 } });
    const cw = f.x(1) - f.x(0);
    const stopCells = [[], []]; // per side: SVG path data of the cells where the table stops
    const openCells = [];
    cells.forEach(([a, b, side], i) => {
      const stops = side >= 0 && halts[i] === 1;
      const d = `M${f.x(a).toFixed(1)} ${f.y(b + 1).toFixed(1)}h${(cw + 0.6).toFixed(2)}v${(cw + 0.6).toFixed(2)}h${(-cw - 0.6).toFixed(2)}z`;
      (stops ? stopCells[side] : openCells).push(d);
    });
    const sideColor = l === 2 ? [classColor(0), classColor(1)] : [classColor(r), classColor(c)];
    f.plot.append(s('path', { d: openCells.join(''), class: 'cell open' }));
    stopCells.forEach((cells, i) => f.plot.append(s('path', { d: cells.join(''), class: 'cell stop', fill: sideColor[i] })));
    const lx = f.x(N + 1) + 8;
    f.plot.append(s('rect', { x: lx, y: f.y(N + 1), width: 10, height: 10, class: 'cell stop', fill: sideColor[1] }));
    f.plot.append(s('text', { x: lx + 14, y: f.y(N + 1) + 9, class: 'small' }, `stop: ${(l === 2 ? names[1] : names[c]).slice(0, 11)}`));
    f.plot.append(s('rect', { x: lx, y: f.y(N + 1) + 16, width: 10, height: 10, class: 'cell stop', fill: sideColor[0] }));
    f.plot.append(s('text', { x: lx + 14, y: f.y(N + 1) + 25, class: 'small' }, `stop: ${(l === 2 ? names[0] : names[r]).slice(0, 11)}`));
    f.plot.append(s('rect', { x: lx, y: f.y(N + 1) + 32, width: 10, height: 10, class: 'cell open' }));
    f.plot.append(s('text', { x: lx + 14, y: f.y(N + 1) + 41, class: 'small' }, 'keep drawing'));
    lattice.path = s('path', { class: 'path' });
    lattice.dot = s('circle', { r: Math.max(3, cw * 0.45), class: 'dot' });
    f.plot.append(lattice.path, lattice.dot);
    Object.assign(lattice, { f, N, c, cw, key: `${view.row}|${opts.rule}|${opts.alpha}|${opts.order}` });
    $('urn-lattice').replaceChildren(f.root);
    updateLattice();
  }

  function updateLattice() {
    if (!lattice.f) return;
    const { f, N, c } = lattice;
    const tr = view.trace;
    const l = app.forest.classNames.length;
    const pts = [[f.x(0.5), f.y(0.5)]];
    let a = 0; let b = 0;
    for (let k = 0; k < view.drawn; k++) {
      const v = tr.votes[k];
      if (l === 2) { if (v === 0) a++; else b++; } else if (v === c) b++; else a++;
      if (a > N || b > N) break;
      pts.push([f.x(a + 0.5), f.y(b + 0.5)]);
    }
    lattice.path.setAttribute('d', linePath(pts));
    const [lx, ly] = pts[pts.length - 1];
    lattice.dot.setAttribute('cx', lx);
    lattice.dot.setAttribute('cy', ly);
    lattice.dot.setAttribute('class', root.dataset.state === 'halted' ? 'stop-dot' : 'dot');
  }

  function renderAll() {
    if (!view.trace) {
      for (const id of ['urn-svg', 'urn-tally', 'urn-verdict', 'urn-posterior', 'urn-pstar', 'urn-lattice']) $(id).replaceChildren();
      $('urn-caption').textContent = view.error ? '' : 'Train a forest to fill the urn.';
      return;
    }
    const t = tallyAt(view.drawn);
    paintMarbles();
    renderTally(t);
    renderVerdict(t);
    renderPosterior(t);
    renderPStar();
    updateLattice();
    const T = view.trace.votes.length;
    $('urn-caption').textContent = `Test row ${view.row + 1}: ${T} trees, ${view.drawn} drawn` +
      (root.dataset.state === 'halted' ? `, stopped (library: ${view.treesUsed} trees).` : '.');
  }

  // ---- playing ----------------------------------------------------------------------------------

  function stepOnce() {
    if (!view.trace || root.dataset.state === 'halted') return false;
    view.drawn++;
    if (view.drawn >= view.trace.treesUsed) {
      view.drawn = view.trace.treesUsed;
      stop();
      setState('halted');
    } else if (root.dataset.state !== 'playing') setState('paused');
    else root.dataset.drawn = String(view.drawn);
    renderAll();
    return true;
  }

  function play() {
    if (!view.trace) return;
    if (root.dataset.state === 'playing') { stop(); setState('paused'); return; }
    if (root.dataset.state === 'halted') reset();
    setState('playing');
    const speed = Number($('urn-speed').value) || 8;
    view.timer = setInterval(stepOnce, 1000 / speed);
  }

  function reset() {
    stop();
    view.drawn = 0;
    setState('ready');
    renderAll();
  }

  function finish() {
    if (!view.trace) return;
    stop();
    view.drawn = view.trace.treesUsed;
    setState('halted');
    renderAll();
  }

  function pickRow(row) {
    $('urn-row').value = String(row + 1);
    load();
  }

  $('urn-play').addEventListener('click', play);
  $('urn-step').addEventListener('click', () => { stop(); if (root.dataset.state === 'playing') setState('paused'); stepOnce(); });
  $('urn-reset').addEventListener('click', reset);
  $('urn-finish').addEventListener('click', finish);
  $('urn-row').addEventListener('change', () => load({ keep: true }));
  $('urn-peek').addEventListener('change', () => view.trace && paintMarbles());
  $('urn-speed').addEventListener('input', (e) => {
    e.target.setAttribute('aria-valuetext', `${e.target.value} marbles per second`);
    if (root.dataset.state === 'playing') { stop(); setState('paused'); play(); }
  });
  $('urn-random').addEventListener('click', () => {
    if (!app.testDs) return;
    pickRow(Math.floor(Math.random() * app.testDs.numRows));
  });
  $('urn-hard').addEventListener('click', async () => {
    if (!app.testDs) return;
    enable(false); // until the hardest row is loaded
    try {
      const pred = await app.predictHalting(app.haltingOptions());
      if (!pred) return;
      const used = pred.treesUsed;
      let best = 0;
      for (let i = 1; i < used.length; i++) if (used[i] > used[best]) best = i;
      pickRow(best);
    } catch { load(); /* shows the rule's error */ }
  });

  app.onModel(() => { $('urn-row').value = '1'; load(); });
  app.onRule(() => { load(); });
  return view;
}
