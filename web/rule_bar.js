// The rule bar: halting rule, α and the trees' query order, with a one-line explanation of the rule. The
// order a model needs is the library's: RemoteForest.info.defaultOrder (random for vote-boosting), never
// decided here.
import { app } from './app.js';
import { h } from './charts.js';
import { linkCitations } from './cite.js';
import { RULE_NAMES, ruleProblem } from './explain.js';

const $ = (id) => document.getElementById(id);

const RULE_HELP = {
  siba: 'Urn model with a uniform prior over final tallies (SIBA [HMS09]). Depends only on T, the number of classes and α.',
  hyper: 'Urn model with the smoothed histogram of out-of-bag votes as prior (HYPER, [SSM16] §3): one table per class.',
  '1dir': 'Urn model with one Dirichlet distribution fitted to the out-of-bag vote fractions.',
  ndir: 'Urn model with a mixture of Dirichlets, one fitted per training class.',
  optimal: 'The table with the fewest expected trees whose average disagreement under the OOB prior is at most 1 − α.',
  alpha1: 'Stop only when the leader\'s lead exceeds the votes left: the answer can no longer change (no statistics).',
  infinite: 'Stop when the leader is the winner of an infinitely large forest with probability > α (Dirichlet posterior, [HMS11]).',
};

let orderForced = false; // the order was switched to random for a model that needs it (restored after)

/** The rule's one-line explanation, with a warning where its assumptions do not hold for this model. */
export function showRuleHelp() {
  const rule = $('rule').value;
  let text = RULE_HELP[rule] ?? '';
  if (rule === 'infinite' && app.remote?.info.defaultOrder === 'random') {
    text += ' Caution: it models the trees as independent draws, which boosted trees are not (vote-boosting with a = b = 1 excepted).';
  }
  $('rule-help').textContent = text;
  linkCitations($('rule-help'));
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

function ruleChanged() {
  showRuleHelp();
  for (const fn of app.ruleListeners) fn();
}

export function createRuleBar() {
  for (const id of ['rule', 'alpha', 'order']) $(id).addEventListener('change', ruleChanged);
  showRuleHelp();
}
