// View 7's words: readable messages for what can go wrong with a user's model or CSV (the library's error
// codes turned into a title, the detail and what to do), and the short explanations of a model's kind and
// of the halting rules.
import { h } from './charts.js';

const TITLES = {
  CorruptModel: ['This file is not an ONNX model that can be read.',
    'Export the model again (skl2onnx, onnxmltools) and open the .onnx file it writes.'],
  UnsupportedVersion: ['This model file uses a format version urnforest does not know.', ''],
  UnsupportedModel: ['This model contains a step urnforest cannot run.',
    'urnforest runs tree-ensemble classifiers (TreeEnsembleClassifier) on their own. Export the forest without ' +
    'preprocessing steps (scalers, imputers, encoders) and apply those to the CSV before opening it.'],
  ColumnMismatch: ['The CSV lacks a column the model needs.',
    'Tick "columns in this order" if the CSV\'s columns are in the order the model was trained on, or type the ' +
    'model\'s column names.'],
  InvalidArgument: ['These settings do not fit the model.', ''],
  LimitExceeded: ['This rule cannot handle a model this large.', 'Try the other rule.'],
  TargetNotFound: ['The label column is not in the CSV.', ''],
};

/** Shows error `e` in `box` as a title, the detail (without the code) and a hint. `what`: the file's name. */
export function showFriendlyError(box, e, what = '') {
  const code = e?.code ?? '';
  let [title, hint] = TITLES[code] ?? [
    code.startsWith('Csv') ? 'The CSV file cannot be read.' : 'Something went wrong.', ''];
  if (code === 'InvalidArgument' && /feature name/.test(e.message)) {
    hint = 'Give one name per model input, separated by commas, each name once.';
  }
  const where = e?.line > 0 ? ` (line ${e.line}${e.column > 0 ? `, column ${e.column}` : ''})` : '';
  const detail = String(e?.message ?? e)
    .replace(/^\w+: /, '')
    .replace(/^line \d+(, column \d+)?: /, '')
    .replace(/node '' \(/g, 'an unnamed node (');
  box.hidden = false;
  box.dataset.code = code || 'Error';
  box.replaceChildren(
    h('strong', { text: `${what ? `${what}: ` : ''}${title}` }), h('br'),
    document.createTextNode(`${detail}${where}`),
    ...(hint ? [h('br'), h('span', { class: 'small', text: hint })] : []),
  );
}

export function clearFriendlyError(box) {
  box.hidden = true;
  box.replaceChildren();
  delete box.dataset.code;
}

/** What the model's kind means, in a sentence or two. */
export function kindText(kind) {
  return kind === 'voting'
    ? 'A voting forest (random forest, extra trees): every tree gives class probabilities and the forest averages them. Its trees can be asked one at a time, like marbles drawn from an urn.'
    : 'An additive model (gradient boosting: XGBoost, LightGBM): every tree adds a score, and only the sum decides. The trees do not vote on their own.';
}

/** What `rule` does, for the text under the rule picker. `lambda`: the margin rule's chosen threshold. */
export function ruleText(rule, alpha, lambda) {
  if (rule === 'auto') {
    return `auto is the recommended rule: it tries the urn tables and, for two classes, the LP strategy on the ` +
      `calibration rows and keeps the one with the fewest trees whose disagreement with the model's own answer is ` +
      `certified to be at most 1 − α = ${+(1 - alpha).toFixed(4)}; if none can be, it stops only when the answer cannot change.`;
  }
  if (rule === 'lp') {
    return `lp asks the trees in a random order and stops where a linear program says to: the fewest trees on ` +
      `average whose mean disagreement on the calibration rows is at most 1 − α = ${+(1 - alpha).toFixed(4)} [KM26]. ` +
      'Not certified: the promise is measured on the rows it was solved on.';
  }
  if (rule === 'hyper') {
    return `hyper treats the trees' votes as marbles in an urn. From the calibration rows it knows how the votes ` +
      `are usually split, and it stops once the probability that the remaining trees will not overturn the leader ` +
      `reaches α = ${alpha}. [SSM16] §2.`;
  }
  const threshold = lambda === undefined ? '' : Number.isFinite(lambda)
    ? ` Here the threshold is ${lambda} (the lead, in standard errors of the trees' spread).`
    : ' Here no threshold met α on the calibration rows, so it only stops when the answer cannot change (the exact rule).';
  return 'margin adds up the trees\' probabilities as they are asked and stops once the leading class is ahead by ' +
    `more than a threshold, chosen on the calibration rows so that the early answer matches the model's own in a ` +
    `share α = ${alpha} of them.${threshold}`;
}
