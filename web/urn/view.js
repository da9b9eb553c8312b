// View 2, the urn: one test row's T tree votes become T marbles, drawn one by one until the halting table
// says stop. Everything shown comes from the library, computed in the worker: forest.trace for the draw
// order and P*, forest.predict for treesUsed, the halting table's halts for the staircase, and
// forest.posterior for the posterior over final tallies ([SSM16] §2) and each class's chance to win.
// This file holds the state machine (row, rule, draws, playback); each picture is a render(container, data)
// of its own module: marbles.js, tally.js, verdict.js, posterior.js, pstar.js, staircase.js, and for two
// classes rule lp's stopping region (lp_panel.js, on the page's copy of the model).
import { h, pending } from '../charts.js';
import { sentence } from '../explain.js';
import { showRuleProblem } from '../rule_bar.js';
import { indexOfMax } from '../math.js';
import * as marbles from './marbles.js';
import * as posterior from './posterior.js';
import * as pstar from './pstar.js';
import * as staircase from './staircase.js';
import { showLpRegion } from './lp_panel.js';
import * as tally from './tally.js';
import * as verdict from './verdict.js';
import * as certifiedVerdict from './certified_verdict.js';
import { isCertifiedRule, traceRule } from '../certified_rule.js';
import { showCertified } from '../certified_answer.js';

const $ = (id) => document.getElementById(id);

export function createUrnView(app) {
  const root = $('urn');
  const view = {
    row: 0, // index into the test rows
    trace: null,
    treesUsed: 0, // from forest.predict(testDs, opts): what the library uses for this row
    drawn: 0,
    timer: null,
    staircase: null, // lattice(trace) with halts and names, once the worker answered for this row and rule
    error: null,
    loadedKey: '', // model version, row and options of the trace shown
    certified: null, // rules auto and lp: traceRule's {options, redraws, strategy}, and the answer's certificate
  };

  /** The options the pictures are drawn for: the rule bar's, or for auto and lp the table rule of traceRule. */
  function drawOptions() { return view.certified?.options ?? app.haltingOptions(); }

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

  function unavailable(error, rule) {
    stop();
    showRuleProblem($('urn-unavailable'), error, rule);
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
    view.staircase = null;
    view.certified = null;
    if (!app.forest || !app.testDs) { enable(false); setState('empty'); showCertified($('urn-certificate'), null); return; }
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
      if (isCertifiedRule(opts.rule)) {
        // No table of their own: the answer says where the row stops (and, for auto, which strategy); the
        // trace of a table rule in the same query order gives the votes.
        pred = await app.predictHalting(opts);
        if (my !== loadGeneration || !pred) return;
        showCertified($('urn-certificate'), opts, pred);
        const traced = traceRule(opts, pred.certificate ?? null);
        trace = await app.trace(view.row, traced.options);
        if (my !== loadGeneration || !trace) return;
        view.certified = { ...traced, certificate: pred.certificate ?? null };
        trace = { ...trace, treesUsed: pred.treesUsed[view.row], haltedEarly: pred.haltedEarly[view.row] === 1,
          classIndex: pred.classIndex[view.row], label: pred.labels[view.row] };
      } else {
        showCertified($('urn-certificate'), null);
        [trace, pred] = await Promise.all([app.trace(view.row, opts), app.predictHalting(opts)]);
        if (my !== loadGeneration) return;
        if (!trace || !pred) return; // superseded: a newer load follows
      }
    } catch (e) {
      if (my !== loadGeneration) return;
      view.error = e;
      enable(false);
      $('urn-row').disabled = false;
      $('urn-random').disabled = false;
      root.dataset.rule = opts.rule;
      setState('error');
      unavailable(e, opts.rule);
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
    root.dataset.strategy = view.certified?.strategy ?? '';
    setState('ready');
    renderAll();
    buildStaircase(my).catch((e) => {
      $('urn-lattice').replaceChildren(h('p', { class: 'muted small', text: `The halting table cannot be drawn for this row: ${sentence(e)}` }));
    });
  }

  // ---- the pictures (urn/*.js render them; this file only says what to show) ----------------------

  function tallyAt(n) {
    const t = new Array(app.forest.classNames.length).fill(0);
    for (let k = 0; k < n; k++) t[view.trace.votes[k]]++;
    return t;
  }

  function showMarbles() {
    const peek = $('urn-peek').checked || root.dataset.state === 'halted';
    marbles.render($('urn-svg'), { votes: view.trace.votes, row: view.row, drawn: view.drawn, peek });
  }

  /** Computes the posterior after the current draw (the latest request wins) and draws it. */
  async function showPosterior(t) {
    const key = view.loadedKey;
    const drawn = view.drawn;
    let msg;
    try { msg = await app.posterior(drawOptions().rule, Int32Array.from(t)); } catch { msg = { value: null }; }
    if (!msg || key !== view.loadedKey || drawn !== view.drawn || !view.trace) return;
    posterior.render($('urn-posterior'), {
      post: msg.value,
      names: app.forest.classNames,
      T: view.trace.votes.length,
      drawn,
      libConf: drawn > 0 ? view.trace.confidence[drawn - 1] : NaN,
      ownConfidence: ['infinite', 'alpha1', 'optimal'].includes(drawOptions().rule),
    });
  }

  /** Asks the worker for halts() on the row's tally lattice once per row and rule, then draws the staircase. */
  async function buildStaircase(my) {
    const names = app.forest.classNames;
    const table = staircase.lattice(view.trace, names.length);
    if (view.certified && !view.certified.redraws) return;
    const halts = await app.halts(drawOptions(), table.tallies, 'lattice');
    if (halts === null || my !== loadGeneration) return;
    view.staircase = { ...table, halts, names };
    showStaircase();
  }

  function showStaircase() {
    if (!view.staircase) return;
    staircase.render($('urn-lattice'), { table: view.staircase, votes: view.trace.votes, drawn: view.drawn,
      halted: root.dataset.state === 'halted' });
  }

  function renderAll() {
    if (!view.trace) {
      for (const id of ['urn-svg', 'urn-tally', 'urn-verdict', 'urn-posterior', 'urn-pstar', 'urn-lattice']) $(id).replaceChildren();
      $('urn-caption').textContent = view.error ? '' : 'Train a forest to fill the urn.';
      showLpRegion(null, {});
      return;
    }
    const tr = view.trace;
    const names = app.forest.classNames;
    const { alpha } = app.haltingOptions();
    const drawAlpha = drawOptions().alpha;
    const halted = root.dataset.state === 'halted';
    const t = tallyAt(view.drawn);
    showMarbles();
    tally.render($('urn-tally'), { names, tally: t, fullVotes: tr.fullVotes, drawn: view.drawn, halted });
    if (halted) root.dataset.agrees = tr.classIndex === tr.fullClassIndex ? 'yes' : 'no';
    const c = view.certified;
    if (c) {
      certifiedVerdict.render($('urn-verdict'), { names, trace: tr, drawn: view.drawn, halted, strategy: c.strategy,
        parameter: c.certificate?.parameter ?? alpha, alpha, conf: view.drawn > 0 ? tr.confidence[view.drawn - 1] : NaN });
    } else verdict.render($('urn-verdict'), { names, trace: tr, drawn: view.drawn, alpha, halted, treesUsed: view.treesUsed });
    if (c && !c.redraws) {
      notRedrawn(c.strategy);
    } else {
      showPosterior(t);
      pstar.render($('urn-pstar'), { confidence: tr.confidence, T: tr.votes.length, treesUsed: tr.treesUsed, drawn: view.drawn,
        alpha: drawAlpha, stopped: halted && tr.haltedEarly });
      showStaircase();
    }
    showLpRegion(app.forest, { alpha, votes: tr.votes, drawn: view.drawn, halted });
    const T = tr.votes.length;
    $('urn-caption').textContent = `Test row ${view.row + 1}: ${T} trees, ${view.drawn} drawn` +
      (halted ? `, stopped (library: ${view.treesUsed} trees).` : '.');
  }

  /** The posterior, P* and staircase pictures give way to a sentence where the page cannot redraw the strategy. */
  function notRedrawn(strategy) {
    const fit = `${view.certified.certificate?.fitRows ?? 0} fit rows (a quarter of the calibration rows)`;
    let text;
    if (app.haltingOptions().rule === 'lp') {
      text = 'Rule lp stops by its linear program\'s region (the figure of rule lp below), not by P*: no P*, posterior or halting table here.';
    } else if (strategy === 'lp') {
      text = `auto chose the LP strategy of [KM26] solved on its ${fit}; the figure of rule lp below is solved on all of them, ` +
        'for comparison only. The marbles stop where the library stops the row.';
    } else {
      text = `auto chose the hyper table with its prior fitted on its ${fit}; the page draws tables with the out-of-bag ` +
        'prior only, so it does not redraw this one. The marbles stop where the library stops the row.';
    }
    for (const id of ['urn-posterior', 'urn-pstar', 'urn-lattice']) $(id).replaceChildren(h('p', { class: 'muted small', text }));
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
  $('urn-peek').addEventListener('change', () => view.trace && showMarbles());
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
      pickRow(indexOfMax(pred.treesUsed)); // the first row that needs the most trees
    } catch { load(); /* shows the rule's error */ }
  });

  app.onModel(() => { $('urn-row').value = '1'; load(); });
  app.onRule(() => { load(); });
  return view;
}
