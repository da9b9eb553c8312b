// A shareable state in the address: the hash holds the data set, the training options, the halting rule and
// the row, e.g. #data=vehicle&ensemble=rf&trees=301&seed=1&rule=hyper&alpha=0.95&order=generation&row=7&view=urn-view;
// with calibration rows and rule auto, e.g. …&cal=0.5&rule=auto&alpha=0.9&delta=0.05&order=random&….
// Opening such an address trains the same model in the page and shows the same row. Only the bundled and
// generated data sets go in it, by name: a file the student opened never leaves the page, so with one the
// address holds no state at all.

import { adoptRule, currentDelta, setDelta } from './certified_rule.js';

const $ = (id) => document.getElementById(id);

/** The keys of the state, in the order written. */
export const STATE_KEYS = ['data', 'ensemble', 'trees', 'seed', 'mtry', 'test', 'a', 'base', 'cal', 'rule', 'alpha', 'delta', 'order', 'row', 'view'];

/** The form fields the keys set, where a key is a field's value. */
const FIELDS = { data: 'dataset', ensemble: 'ensemble', trees: 'trees', seed: 'seed', mtry: 'mtry', test: 'holdout', base: 'vb-base', cal: 'calibrate' };

/**
 * The state in `hash` ('#data=iris&…') as a plain object of strings, or null when it holds none; a bare
 * anchor ('#urn-view') is {view: 'urn-view'}.
 */
export function readState(hash) {
  const text = hash.replace(/^#/, '');
  if (text === '') return null;
  if (!text.includes('=')) return { view: decodeURIComponent(text) };
  const params = new URLSearchParams(text);
  const state = {};
  for (const key of STATE_KEYS) if (params.has(key)) state[key] = params.get(key);
  return state;
}

/** `state` as a hash ('#data=…'), keys in STATE_KEYS order. */
export function stateHash(state) {
  const params = new URLSearchParams();
  for (const key of STATE_KEYS) if (state[key] !== undefined && state[key] !== '') params.set(key, String(state[key]));
  return `#${params.toString()}`;
}

/**
 * Sets the fields of a state that exist in the page (data set, training options, rule, α, order) and
 * returns the sentences about the values that could not be used (an unknown data set, rule, …).
 * `emphasisGrid`: the library's grid of a = b values (the vote-boosting slider's positions).
 */
export function applyFields(state, emphasisGrid) {
  const problems = [];
  const set = (id, value, what) => {
    const el = $(id);
    if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === value && !o.disabled)) {
      problems.push(`the link asks for ${what} "${value}", which this page does not have`);
      return;
    }
    el.value = value;
  };
  for (const [key, id] of Object.entries(FIELDS)) if (state[key] !== undefined) set(id, state[key], key === 'data' ? 'the data set' : `the ${id} option`);
  if (state.a !== undefined) {
    $('vb-cv').checked = state.a === 'cv';
    const i = emphasisGrid.findIndex((g) => String(g) === state.a);
    if (i >= 0) $('vb-a').value = String(i);
    else if (state.a !== 'cv') problems.push(`the link asks for the emphasis a = b = ${state.a}, which is not on the slider's grid`);
  }
  if (state.rule !== undefined) set('rule', state.rule, 'the rule');
  if (state.alpha !== undefined) set('alpha', state.alpha, 'α =');
  if (state.order !== undefined) set('order', state.order, 'the tree order');
  adoptRule($('rule').value); // the order of the address is kept, also for auto and lp
  if (state.delta !== undefined && !setDelta(state.delta)) problems.push(`the link asks for δ = "${state.delta}", which is not a number between 0 and 1`);
  return problems;
}

/** The state of the page now: the trained model's options (`trained`), the rule bar, the row and the view. */
export function currentState(trained, view) {
  if (trained === null) return null;
  return {
    ...trained,
    rule: $('rule').value,
    alpha: $('alpha').value,
    order: $('order').value,
    delta: $('rule').value === 'auto' ? String(currentDelta()) : undefined,
    row: $('urn-row').value,
    view,
  };
}

/** The training options of the form, as state keys (taken when a model is trained from a named data set). */
export function trainedState() {
  const ensemble = $('ensemble').value;
  const state = { data: $('dataset').value, ensemble, trees: $('trees').value.trim(), seed: $('seed').value.trim(), test: $('holdout').value };
  if ($('calibrate').value !== '0') state.cal = $('calibrate').value;
  if (!$('mtry').disabled) state.mtry = $('mtry').value.trim();
  if (ensemble === 'voteboost') {
    state.a = $('vb-cv').checked ? 'cv' : $('vb-a-out').textContent;
    state.base = $('vb-base').value;
  }
  return state;
}
