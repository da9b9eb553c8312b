// View 4, the prior: the out-of-bag votes of the training rows rescaled to T (raw histogram, computed here),
// the smoothed histogram of 'hyper' and the fitted Dirichlet priors ('1dir', 'ndir') over the final tallies
// (forest.posterior of the empty tally, their parameters from forest.prior(rule)), and how each prior moves
// the halting staircase (forest.haltingTable).
import { classColor, fmt, frame, h, linePath, pending, s, slowGate } from './charts.js';
import { RULE_NAMES, sentence } from './explain.js';
import { ruleInfo } from '/dist/index.js';
import { MAX_POSTERIOR_TALLIES, numTallies } from './math.js';

const $ = (id) => document.getElementById(id);
// The papers' finite-urn rules, one per prior (siba, hyper, 1dir, ndir), and the lead rule (no table,
// alpha1) as the staircases' reference: [name, label, series class], from the library's ruleInfo.
const RULES = ruleInfo.filter((r) => r.fromPapers && r.fullTableMaxClasses > 0)
  .map((r, i) => [r.name, RULE_NAMES[r.name], `s${i}`]);
const LEAD_RULE = ruleInfo.filter((r) => !r.onDemand).map((r) => [r.name, RULE_NAMES[r.name], `s${RULES.length}`]);
const NEEDS_PRIOR = new Set(ruleInfo.filter((r) => r.needsPrior).map((r) => r.name));

/**
 * The distribution of `stat` of the final tally under a prior listed with explicit tallies (`post`:
 * forest.posterior of the empty tally): out[v] = P(stat(final tally) = v), v = 0..T.
 */
function statisticOf(post, stat) {
  const l = post.numClasses;
  const out = new Float64Array(post.numTrees + 1);
  for (let k = 0; k < post.probability.length; k++) out[stat(post.tallies.subarray(k * l, (k + 1) * l))] += post.probability[k];
  return out;
}

const betas = (c) => `β = (${Array.from(c.beta).map((b) => fmt(b, 2)).join(', ')})`;

/** One sentence per fitted prior: its kind and parameters (forest.prior(rule).components). */
function describePrior(rule, prior, names) {
  const parts = prior.components;
  if (rule === '1dir') {
    return `1dir: one Dirichlet distribution over the vote shares, ${betas(parts[0])}; values below 1 mean the trees ` +
      'usually agree (votes near unanimous).';
  }
  if (rule === 'ndir' && parts.length === names.length) {
    return 'ndir: one Dirichlet per training class, weighted by how often the class occurs: ' +
      parts.map((c, i) => `${names[i]} (weight ${fmt(c.weight, 2)}) ${betas(c)}`).join('; ') + '.';
  }
  if (rule === 'hyper') {
    return `hyper: the smoothed out-of-bag histogram itself, stored as a mixture of ${parts.length} components ` +
      '(the bars and the line on the left).';
  }
  return `${rule}: a mixture of ${parts.length} Dirichlet components.`;
}

export function createPriorView(app) {
  function note(message) {
    const el = $('prior-unavailable');
    el.hidden = !message;
    el.textContent = message ?? '';
  }

  /** Raw OOB histogram over the statistic `stat(rescaledTally)` in 0..T. */
  function rawHistogram(T, l, stat) {
    const votes = app.forest.oobVotes();
    const hist = new Float64Array(T + 1);
    let rows = 0;
    const tally = new Array(l);
    for (let r = 0; r * l < votes.length; r++) {
      let sum = 0;
      for (let i = 0; i < l; i++) sum += votes[r * l + i];
      if (!sum) continue;
      // Rescale to T with largest-remainder rounding, as the library does for 'hyper'.
      let used = 0;
      const rem = [];
      for (let i = 0; i < l; i++) {
        const exact = (T * votes[r * l + i]) / sum;
        tally[i] = Math.floor(exact);
        used += tally[i];
        rem.push([exact - tally[i], i]);
      }
      rem.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      for (let k = 0; k < T - used; k++) tally[rem[k][1]]++;
      hist[stat(tally)]++;
      rows++;
    }
    for (let v = 0; v <= T; v++) hist[v] /= rows || 1;
    return { hist, rows };
  }

  async function renderHistogram() {
    const version = app.version;
    const l = app.forest.numClasses;
    const T = app.forest.numTrees;
    const listed = numTallies(l, T) <= MAX_POSTERIOR_TALLIES;
    const priors = new Map();
    const finals = new Map();
    for (const [rule] of RULES) {
      try { priors.set(rule, await app.prior(rule)); } catch (e) { priors.set(rule, e); }
      // No curve when the library cannot list the final tallies (more than 4 classes): the prior's error says why.
      try { finals.set(rule, listed ? await app.priorTallies(rule) : undefined); } catch { finals.set(rule, undefined); }
    }
    if (version !== app.version) return;
    const names = app.forest.classNames;
    const stat = l === 2 ? (t) => t[0] : (t) => Math.max(...t);
    const { hist, rows } = rawHistogram(T, l, stat);
    const curves = [];
    const params = [];
    for (const [rule, label, cls] of RULES) {
      try {
        const prior = priors.get(rule);
        const final = finals.get(rule);
        if (prior === null || final === null) return; // the model changed meanwhile
        if (prior instanceof Error) throw prior;
        if (final) curves.push({ label, cls, values: statisticOf(final, stat) });
        if (prior.components?.length && NEEDS_PRIOR.has(rule)) params.push(describePrior(rule, prior, names));
      } catch (e) { params.push(`${rule}: this prior cannot be fitted here. ${sentence(e)}`); }
    }
    const yMax = Math.max(...hist, ...curves.flatMap((c) => Array.from(c.values))) * 1.08 || 1;
    const xLabel = l === 2 ? `OOB votes for ${names[0]}, rescaled to T = ${T}` : `votes for the OOB winner, rescaled to T = ${T}`;
    const f = frame({ w: 460, h: 240, x: [l === 2 ? 0 : Math.floor(T / l), T + 1], y: [0, yMax], xLabel, yLabel: 'share of rows',
      title: 'Out-of-bag vote histogram and priors', yFormat: (v) => v.toFixed(2), margin: { l: 50 } });
    const x0 = l === 2 ? 0 : Math.floor(T / l);
    const bw = Math.max(0.6, f.x(1) - f.x(0) - 0.4);
    for (let v = x0; v <= T; v++) {
      if (hist[v] > 0) f.plot.append(s('rect', { x: f.x(v), y: f.y(hist[v]), width: bw, height: f.y(0) - f.y(hist[v]), class: 'hist raw' }));
    }
    for (const c of curves) {
      const pts = [];
      for (let v = x0; v <= T; v++) pts.push([f.x(v + 0.5), f.y(c.values[v])]);
      f.plot.append(s('path', { d: linePath(pts), class: `series ${c.cls}` }, s('title', {}, c.label)));
    }
    const legend = h('ul', { class: 'legend' }, h('li', {}, h('span', { class: 'swatch raw' }), `raw OOB histogram (${rows} training rows)`),
      ...curves.map((c) => h('li', {}, h('span', { class: `swatch line ${c.cls}` }), c.label)));
    $('prior-hist').replaceChildren(f.root, legend);
    $('prior-params').replaceChildren(...(params.length ? [h('summary', { text: 'The fitted priors, in numbers' }),
      h('ul', {}, ...params.map((p) => h('li', { text: p })))] : []));
    $('prior-params').hidden = params.length === 0;
    $('prior-caption').textContent = l === 2
      ? 'Bars: share of training rows whose out-of-bag votes, rescaled to T, give class 0 that many votes (raw). Lines: the priors over the final tally.'
      : 'With more than two classes the picture shows the leading class\'s final count (raw bars, prior lines).';
  }

  let generation = 0;

  async function renderStairs(force = false) {
    const my = ++generation;
    const names = app.forest.classNames;
    const l = names.length;
    const T = app.forest.numTrees;
    const alpha = app.haltingOptions().alpha;
    if (l >= 4 && force !== true) {
      slowGate($('prior-stairs'), `With ${l} classes each halting table takes seconds to build (in a worker: the page stays usable).`,
        'Compare the staircases', () => renderStairs(true).catch((e) => note(`The staircases cannot be drawn: ${sentence(e)}`)));
      return;
    }
    // Class c leads, a rival r gets every other vote; for each rival count m, the fewest votes c needs to stop.
    const c = 0;
    const r = 1;
    const M = Math.min(Math.floor(T / 2), 40);
    const lines = [];
    // Exact tables for 4 classes take seconds each: compare only the cheap ones there.
    const rules = [...RULES, ...LEAD_RULE].filter(([rule]) => l <= 3 || !NEEDS_PRIOR.has(rule));
    // For each rival count m, the tallies (k, m) with k = m + 1 … T − m; the worker answers halts() for all.
    const tallies = [];
    for (let m = 0; m <= M; m++) for (let k = m + 1; k + m <= T; k++) tallies.push([k, m]);
    $('prior-stairs').setAttribute('aria-busy', 'true');
    const answers = [];
    try {
      for (const [rule] of rules) {
        const flat = new Int32Array(tallies.length * l);
        tallies.forEach(([k, m], i) => { flat[i * l + c] = k; flat[i * l + r] = m; });
        let halts = null;
        try { halts = await app.halts({ rule, alpha }, flat, null); } catch { halts = undefined; }
        if (halts === null || my !== generation) return;
        answers.push(halts);
      }
    } finally {
      $('prior-stairs').removeAttribute('aria-busy');
    }
    rules.forEach(([rule, label, cls], j) => {
      const halts = answers[j];
      if (!halts) return;
      // The first k that halts for each m (tallies are in m-major, k-increasing order).
      const need = new Map();
      tallies.forEach(([k, m], i) => { if (halts[i] && !need.has(m)) need.set(m, k); });
      const pts = [...need].sort((x, y) => x[0] - y[0]).map(([m, k]) => [m, k - m]);
      lines.push({ label, cls, pts });
    });
    const lead = new Set(LEAD_RULE.map(([, label]) => label));
    const yMax = Math.min(T, Math.max(10, ...lines.filter((ln) => !lead.has(ln.label)).flatMap((ln) => ln.pts.map((p) => p[1]))) + 4);
    const f = frame({ w: 460, h: 240, x: [0, M], y: [0, yMax], xLabel: `votes for ${names[r]} so far`,
      yLabel: `lead ${names[c]} needs to stop`, title: 'Halting thresholds under each prior' });
    const clip = s('clipPath', { id: 'stairs-clip' }, s('rect', { x: f.x(0), y: f.y(yMax), width: f.x(M) - f.x(0), height: f.y(0) - f.y(yMax) }));
    f.root.append(clip);
    f.plot.setAttribute('clip-path', 'url(#stairs-clip)');
    for (const ln of lines) {
      const pts = ln.pts.map(([m, k]) => [f.x(m), f.y(k)]);
      // A staircase: horizontal then vertical steps.
      const stair = [];
      pts.forEach((p, i) => { if (i) stair.push([p[0], pts[i - 1][1]]); stair.push(p); });
      if (stair.length) f.plot.append(s('path', { d: linePath(stair), class: `series ${ln.cls}` }, s('title', {}, ln.label)));
    }
    const legend = h('ul', { class: 'legend' }, ...lines.map((ln) => h('li', {}, h('span', { class: `swatch line ${ln.cls}` }), ln.label)));
    $('prior-stairs').replaceChildren(f.root, legend);
    $('prior-stairs').dataset.classColor = classColor(c);
  }

  function render() {
    if (!app.forest || !app.testDs) return;
    note(null);
    renderHistogram().catch((e) => note(`The prior cannot be drawn: ${sentence(e)}`));
    renderStairs().catch((e) => note(`The staircases cannot be drawn: ${sentence(e)}`));
  }

  app.onModel(() => {
    if (app.forest && app.testDs) pending($('prior-hist'), $('prior-stairs'));
    render();
  });
  app.onRule(() => { if (app.forest && app.testDs) renderStairs().catch(() => { /* shown on model change */ }); });
}
