// The rule bar: halting rule, α and the trees' query order, with a one-line explanation of the rule (the
// rules, their summaries and descriptions are the library's ruleInfo). The
// order a model needs is the library's: RemoteForest.info.defaultOrder (random for vote-boosting), never
// decided here.
import { app } from './app.js';
import { h } from './charts.js';
import { linkCitations } from './cite.js';
import { RULE_NAMES, ruleProblem } from './explain.js';
import { syncRuleMirrors } from './rule_mirror.js';
import { certifiedHelp, certifiedOptions, certifiedRulePicked, deltaTyped, isCertifiedRule, orderChosen } from './certified_rule.js';
import { ruleInfo } from '/dist/index.js';

const $ = (id) => document.getElementById(id);

/** The rule the page starts with: its table depends only on T, the classes and α. */
const FIRST_RULE = 'siba';

let orderForced = false; // the order was switched to random for a model that needs it (restored after)

/** The rule's one-line explanation, with a warning where its assumptions do not hold for this model. */
export function showRuleHelp() {
  const rule = $('rule').value;
  const info = ruleInfo.find((r) => r.name === rule);
  let text = info ? `${info.name} (${info.summary}). ${info.description}` : '';
  if (isCertifiedRule(rule)) text = certifiedHelp(rule, Number($('alpha').value));
  if (info?.infiniteEnsemble && app.remote?.info.defaultOrder === 'random') {
    text += ' Caution: it models the trees as independent draws, which boosted trees are not (vote-boosting with a = b = 1 excepted).';
  }
  $('rule-help').textContent = text;
  linkCitations($('rule-help'));
  syncRuleMirrors(); // the copies beside views 3 and 6
}

/**
 * Sets the order control to the model's default query order: a model whose trees must be asked in a random
 * order per row (the library says which) gets 'random', and 'as trained' is disabled for it.
 */
export function useModelOrder(defaultOrder) {
  const forced = defaultOrder === 'random';
  if (forced && $('order').value !== 'random') { $('order').value = 'random'; orderForced = true; }
  if (!forced && orderForced) { $('order').value = 'generation'; orderForced = false; }
  $('order').querySelector('option[value="generation"]').disabled = forced;
  $('order-note').hidden = !forced;
  offerCertifiedRules(app.forest?.numClasses ?? 0);
  showRuleHelp();
}

/** Switches the rule bar to `rule`, as if the student had picked it. */
export function useRule(rule) {
  $('rule').value = rule;
  ruleChanged();
}

/**
 * Fills the warning box `el` with why `rule` cannot run on the current model (error `e`) and buttons that
 * switch to rules that can; `el` empty and hidden when `e` is null.
 */
export function showRuleProblem(el, e, rule) {
  el.hidden = !e;
  el.replaceChildren();
  delete el.dataset.code;
  if (!e) return;
  const { text, alternatives } = ruleProblem(e, { rule, numTrees: app.forest?.numTrees ?? 0, numClasses: app.forest?.numClasses ?? 0 });
  el.dataset.code = e.code ?? e.name ?? 'Error';
  el.append(h('p', { text }), h('div', { class: 'buttons' }, ...alternatives.map((r) =>
    h('button', { type: 'button', class: 'secondary', text: `Use ${RULE_NAMES[r]}`, onclick: () => useRule(r) }))));
}

/** Rewrites the options of rules auto and lp for a model of `numClasses` (lp: two classes only; 0: no model). */
function offerCertifiedRules(numClasses) {
  for (const o of certifiedOptions(numClasses)) {
    const option = $('rule').querySelector(`option[value="${o.value}"]`);
    option.textContent = o.text;
    option.disabled = o.disabled;
  }
  if ($('rule').selectedOptions[0]?.disabled) { $('rule').value = 'auto'; ruleChanged(); }
}

function ruleChanged() {
  certifiedRulePicked($('rule').value);
  showRuleHelp();
  for (const fn of app.ruleListeners) fn();
}

/**
 * Short glosses for the rule list, so that each option fits a phone's select whole (the library's summary,
 * longer, opens the rule's explanation below the bar). A rule without one shows its summary when short.
 */
const SHORT = {
  alpha1: 'answer cannot change', siba: 'uniform prior', hyper: 'out-of-bag histogram', '1dir': 'one Dirichlet prior',
  ndir: 'Dirichlet per class', infinite: 'infinite forest', optimal: 'fewest trees',
};

/** The option text of rule `r` (an entry of ruleInfo). */
export function ruleLabel(r) {
  const gloss = SHORT[r.name] ?? (r.summary.length <= 22 ? r.summary : '');
  return gloss ? `${r.name}: ${gloss}` : r.name;
}

export function createRuleBar() {
  $('rule').replaceChildren(...ruleInfo.map((r) => h('option', { value: r.name, text: ruleLabel(r) })),
    ...certifiedOptions(0).map((o) => h('option', { value: o.value, text: o.text })));
  $('rule').value = FIRST_RULE;
  for (const id of ['rule', 'alpha', 'order']) $(id).addEventListener('change', ruleChanged);
  $('order').addEventListener('change', orderChosen);
  $('delta').addEventListener('input', () => { if (deltaTyped()) ruleChanged(); });
  certifiedRulePicked(FIRST_RULE);
  showRuleHelp();
}
