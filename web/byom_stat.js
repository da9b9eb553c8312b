// View 7's statistical rules for an imported voting forest: the rule picker (auto, hyper, margin, lp), α and
// δ, the metrics of the chosen rule on the CSV's rows, rule auto's certificate (certificate.js) and, for
// rule lp on two classes, its stopping region (urn/lp_region.js). hyper, margin and lp need calibration
// rows; auto runs before calibration too, and its certificate then says why it cannot certify.
import { fmt, pct } from './charts.js';
import { certificateBlock } from './certificate.js';
import { ruleText, showFriendlyError } from './byom_messages.js';
import * as lpRegion from './urn/lp_region.js';
import { checkDelta, showVerdict } from './validate.js';

const $ = (id) => document.getElementById(id);

/** Offers lp only for two classes; the option says why otherwise. */
function offerLp(numClasses) {
  const option = $('byom-rule').querySelector('option[value="lp"]');
  option.disabled = numClasses !== 2;
  option.textContent = numClasses === 2 ? 'lp: fewest trees (two classes)' : 'lp: two classes only';
  if (option.disabled && $('byom-rule').value === 'lp') $('byom-rule').value = 'auto';
}

function clearResults() {
  $('byom-stat').replaceChildren();
  $('byom-certificate').replaceChildren();
  $('byom-certificate').hidden = true;
  $('byom-lp-figure').hidden = true;
}

/**
 * Returns render(), which shows the chosen rule for `st` (byom.js's state: forest, ds, labels), with
 * `metric(dl, items)` and `accuracy(classIndex)` of byom.js, errors in `errorBox`, marking `section`.
 */
export function createByomStat({ st, section, errorBox, metric, accuracy }) {
  return function render() {
    const info = st.forest.imported;
    const calibrated = info.calibrated;
    offerLp(st.forest.numClasses);
    $('byom-rule').disabled = false;
    $('byom-alpha').disabled = false;
    const rule = $('byom-rule').value;
    const alpha = Number($('byom-alpha').value);
    $('byom-delta-cell').hidden = rule !== 'auto';
    delete section.dataset.statMeanTrees;
    const delta = showVerdict('byom-delta', rule === 'auto' ? checkDelta($('byom-delta').value) : { ok: true, note: '' });
    if (!delta.ok) { clearResults(); $('byom-rule-help').textContent = 'Type a valid δ to run rule auto.'; return; }
    if (!calibrated && rule !== 'auto') {
      $('byom-rule-help').textContent = 'Calibrate first: it takes one pass of all the trees over these rows. (Rule auto runs without, and says what it needs.)';
      clearResults();
      return;
    }
    st.stat = null;
    try {
      st.stat = st.forest.predict(st.ds, { rule, alpha, compare: true, ...(rule === 'auto' ? { delta: delta.value } : {}) });
    } catch (e) {
      clearResults();
      $('byom-rule-help').textContent = ruleText(rule, alpha);
      showFriendlyError(errorBox, e, `Rule ${rule}`);
      return;
    }
    const p = st.stat;
    const T = p.trees;
    const n = p.classIndex.length;
    const acc = accuracy(p.classIndex);
    $('byom-rule-help').textContent = `${calibrated ? `Calibrated on ${info.calibrationRows} rows. ` : ''}${ruleText(rule, alpha, p.lambda)}`;
    section.dataset.statMeanTrees = String(p.meanTrees);
    metric($('byom-stat'), [
      ['Trees asked per row (mean)', `${fmt(p.meanTrees, 1)} of ${T}`, 'stat-mean-trees'],
      ['Trees saved', pct(1 - p.meanTrees / T, 0), 'stat-saved'],
      ['Differs from the model\'s own answer', `${pct(p.disagreement, 1)} (${Math.round(p.disagreement * n)} of ${n} rows)`, 'disagreement'],
      ...(acc ? [['Accuracy of the early answers', pct(acc.value), 'stat-accuracy']] : []),
    ]);
    $('byom-certificate').hidden = !p.certificate;
    $('byom-certificate').replaceChildren(...(p.certificate ? [certificateBlock(p.certificate)] : []));
    $('byom-lp-figure').hidden = rule !== 'lp';
    if (rule === 'lp') {
      lpRegion.render($('byom-lp'), { region: st.forest.stoppingRegion({ rule: 'lp', alpha }), names: st.display });
    }
  };
}
