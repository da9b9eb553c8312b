// Rules auto (certified halting, docs/halting.md "Certified halting") and lp ([KM26], two classes) in the main
// rule bar of views 2, 3 and 6: their options beside the library's table rules, rule auto's δ (checked as
// typed), the random query order they assume, and which table rule shows a row's votes in the urn. They
// are not table rules (ruleInfo lists those): the library answers them only through predict, with the
// certificate in the answer; the urn's pictures follow the strategy auto chose where the page can redraw it.
import { checkDelta, showVerdict } from './validate.js';

const $ = (id) => document.getElementById(id);

/** The rules of this module, in the order offered (after the table rules). */
export const CERTIFIED_RULES = ['auto', 'lp'];

/** δ used when the field holds no valid number yet (the library's default). */
export const DEFAULT_DELTA = 0.05;

const LABELS = { auto: 'auto: certified (recommended)', lp: 'lp: fewest trees (two classes)' };

/** True for auto and lp: rules answered only through predict (no halting table, no trace of their own). */
export function isCertifiedRule(rule) { return CERTIFIED_RULES.includes(rule); }

/** The options for the rule list (plain objects {value, text}); lp is offered only for two classes. */
export function certifiedOptions(numClasses) {
  return CERTIFIED_RULES.map((name) => ({
    value: name,
    text: name === 'lp' && numClasses > 0 && numClasses !== 2 ? 'lp: two classes only' : LABELS[name],
    disabled: name === 'lp' && numClasses > 0 && numClasses !== 2,
  }));
}

/** What `rule` does at `alpha`, for the line under the rule bar. */
export function certifiedHelp(rule, alpha) {
  const target = +(1 - alpha).toFixed(4);
  if (rule === 'auto') {
    return `auto (certified halting). It tries the urn tables (siba, hyper) at several thresholds and, for two ` +
      `classes, the LP strategy of [KM26], and keeps the one with the fewest trees whose disagreement with the full ` +
      `vote is certified to be at most 1 − α = ${target}, with probability 1 − δ over the calibration rows. It needs ` +
      'calibration rows (the "Calibrate on" control): without them, or with too few, it answers with the exact exit, which ' +
      'always equals the full vote, and says how many rows it would need. It assumes the trees are asked in a random order.';
  }
  return `lp (the LP-optimal strategy of [KM26], two classes). It asks the trees in a random order and stops where a ` +
    `linear program says to: the fewest trees on average whose mean disagreement with the full vote, on the rows it was ` +
    `solved on (the calibration rows, else the out-of-bag votes), is at most 1 − α = ${target}. Not certified: that ` +
    'promise holds on those rows, not on new ones.';
}

let delta = DEFAULT_DELTA; // the last valid δ typed

/** δ for rule auto: the last valid value of the δ field. */
export function currentDelta() { return delta; }

/**
 * Checks the δ field as typed and marks it; returns true when its value is valid and differs from the one in
 * use (then it becomes the one in use: the caller redraws).
 */
export function deltaTyped() {
  const verdict = showVerdict('delta', checkDelta($('delta').value));
  if (!verdict.ok || verdict.value === delta) return false;
  delta = verdict.value;
  return true;
}

/** Sets δ from a shared address (the field and the value in use); false when the text is not a valid δ. */
export function setDelta(text) {
  $('delta').value = text;
  const verdict = showVerdict('delta', checkDelta(text));
  if (verdict.ok) delta = verdict.value;
  return verdict.ok;
}

let orderSwitched = false; // the order was switched to random when auto or lp was picked (restored after)
let lastRule = '';

/**
 * Shows the δ field for auto only, and gives auto and lp the random query order they assume: picking them
 * with the order "as trained" switches it to random (and back when another rule is picked). A student who then
 * chooses "as trained" again gets it: auto then answers with the exact exit and its certificate says why.
 */
export function certifiedRulePicked(rule) {
  for (const id of ['delta-label', 'delta-cell']) $(id).hidden = rule !== 'auto';
  if (rule === lastRule) return; // α or the order changed: the order the student has is kept
  lastRule = rule;
  const certified = isCertifiedRule(rule);
  if (certified && $('order').value === 'generation' && !orderSwitched) {
    $('order').value = 'random';
    orderSwitched = true;
  } else if (!certified && orderSwitched) {
    if (!$('order').querySelector('option[value="generation"]').disabled) $('order').value = 'generation';
    orderSwitched = false;
  }
}

/** A rule set from a shared address, with its order: the order in the address is kept. */
export function adoptRule(rule) { lastRule = rule; orderSwitched = false; }

/** The student chose an order by hand: it is kept when the rule changes. */
export function orderChosen() { orderSwitched = false; }

/**
 * The table rule whose trace shows a row's votes for certified rule `rule` in the same query order as its
 * prediction, given the answer's `certificate` (null for lp): {options, redraws}. redraws: the rule's own
 * table is the one auto stops by (siba at the certified threshold, or the exact exit alpha1), so P*, the
 * staircase and the posterior can be drawn for it; otherwise (hyper fitted on the calibration rows, lp) only
 * the votes are taken from the trace and the stop from the prediction.
 */
export function traceRule(opts, certificate) {
  const base = { ...opts };
  delete base.delta;
  const strategy = opts.rule === 'auto' ? certificate?.strategy ?? 'exact' : 'lp';
  if (strategy === 'siba') return { options: { ...base, rule: 'siba', alpha: certificate.parameter }, redraws: true, strategy };
  return { options: { ...base, rule: 'alpha1', alpha: 1 }, redraws: strategy === 'exact', strategy };
}
