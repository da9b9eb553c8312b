// View 3's trade-off table: at the rule bar's α, the trees each row needs and the disagreement with the full vote
// on the test rows for hyper (an estimate from the out-of-bag prior, no promise), auto (certified from the
// calibration rows) and, for two classes, lp (fewest trees for its target on the rows it was solved on, no
// promise), beside the full vote. Computed in the worker (cancellable); with many classes or trees it waits
// for a click, since auto then builds several tables.
import { fmt, h, pct, slowGate } from './charts.js';
import { linkCitations } from './cite.js';
import { sentence } from './explain.js';
import { isCancelled } from './work.js';

const $ = (id) => document.getElementById(id);

/** What each rule promises, for the table's last column (`p`: the answer; `alpha`: the rule bar's α). */
function promise(rule, p, alpha) {
  if (rule === 'hyper') return `none: P* ≥ α = ${alpha} under the out-of-bag prior, an estimate`;
  if (rule === 'lp') return `none: mean disagreement ≤ ${pct(1 - alpha, 1)} on the rows it was solved on [KM26]`;
  const c = p.certificate;
  return c.certified ? `≤ ${pct(c.bound, 1)} with probability ≥ ${pct(1 - c.delta, 0)} (${c.strategy})`
    : 'none certified: the exact exit, always the full vote';
}

/** The rules compared for a model of `numClasses` classes. */
function rulesFor(numClasses) { return numClasses === 2 ? ['hyper', 'auto', 'lp'] : ['hyper', 'auto']; }

/** Predicts the test rows under each rule at the rule bar's α and order (one rule failing leaves a row saying why). */
async function compare(remote, opts, rules) {
  const base = { alpha: opts.alpha, order: opts.order ?? 'generation', ...(opts.seed !== undefined ? { seed: opts.seed } : {}), compare: true };
  const out = [];
  for (const rule of rules) {
    const options = { ...base, rule, ...(rule === 'auto' ? { delta: opts.delta ?? 0.05 } : {}) };
    try {
      out.push({ rule, p: await remote.predict('test', options) });
    } catch (e) {
      if (isCancelled(e) || e?.code === 'RemoteDisposed') throw e;
      out.push({ rule, error: e });
    }
  }
  return out;
}

function table(results, T, alpha) {
  const row = (cells) => h('tr', {}, ...cells.map((c, i) => h(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row', text: c } : { text: c })));
  const body = results.map(({ rule, p, error }) => (error
    ? row([rule, '—', '—', `cannot run: ${sentence(error)}`])
    : row([rule, `${fmt(p.meanTrees, 1)} (${(T / p.meanTrees).toFixed(1)}× fewer)`, pct(p.disagreement, 1), promise(rule, p, alpha)])));
  return h('table', { class: 'data tradeoff-table' },
    h('caption', { text: `Trees versus disagreement at α = ${alpha} on the test rows` }),
    h('thead', {}, h('tr', {}, ...['Rule', `Trees per row (of ${T})`, 'Disagreement', 'What is promised'].map((t) => h('th', { scope: 'col', text: t })))),
    h('tbody', {}, row(['full vote', String(T), '0 %', 'the answer itself']), ...body));
}

/**
 * Returns render(opts, my, isCurrent): fills #test-tradeoff for the rule bar's options `opts`; `isCurrent()`
 * says whether the view still shows the model and options it was asked for.
 */
export function createTradeoff(app) {
  const box = $('test-tradeoff');
  async function run(opts, isCurrent) {
    const rules = rulesFor(app.forest.numClasses);
    box.setAttribute('aria-busy', 'true');
    let results = null;
    try {
      results = await app.work('comparing hyper, auto and lp', (remote) => compare(remote, opts, rules), 'tradeoff');
    } catch (e) {
      if (isCurrent()) box.replaceChildren(h('p', { class: 'muted small', text: `The comparison cannot be computed: ${sentence(e)}` }));
    }
    box.removeAttribute('aria-busy');
    if (!results || !isCurrent()) return;
    const explain = h('p', { class: 'small' }, 'Fewer trees cost disagreement. hyper trusts its prior; auto gives up some trees for a ' +
      'promise that holds with probability 1 − δ over the calibration rows, if future rows are like them; lp uses the fewest trees ' +
      'for its target on the rows it was solved on, and promises nothing for new rows [KM26]. More calibration rows let auto ' +
      'certify cheaper strategies.');
    box.replaceChildren(table(results, app.forest.numTrees, opts.alpha), explain);
    linkCitations(box);
    box.dataset.rules = results.map((r) => r.rule).join(' ');
    for (const r of results) {
      if (!r.p) continue;
      box.dataset[`${r.rule}Trees`] = String(r.p.meanTrees);
      box.dataset[`${r.rule}Disagreement`] = String(r.p.disagreement);
    }
  }
  return function render(opts, isCurrent) {
    box.hidden = false;
    for (const key of Object.keys(box.dataset)) delete box.dataset[key];
    const slow = app.forest.numClasses > 2 || app.forest.numTrees > 301;
    if (slow) {
      slowGate(box, `Compare the trees and the disagreement of hyper and auto at α = ${opts.alpha}: with ${app.forest.numClasses} ` +
        `classes and ${app.forest.numTrees} trees rule auto builds several tables (in the worker; Cancel stops it).`,
      'Compare hyper and auto', () => run(opts, isCurrent));
      return;
    }
    box.replaceChildren(h('p', { class: 'muted small pending', text: 'Comparing hyper, auto and lp in the background…' }));
    run(opts, isCurrent);
  };
}
