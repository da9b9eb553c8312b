// Next to a result of rule auto or lp (views 2, 3 and 6): auto's certificate in words (certificate.js) with what
// the rows at hand measured, or for lp why it is not certified; nothing for the table rules.
import { fmt, h, pct } from './charts.js';
import { certificateBlock } from './certificate.js';
import { linkCitations } from './cite.js';

/**
 * Fills `box` for the answer `pred` (a HaltedPrediction of the rule bar's options `opts`, with compare: true
 * when it has `disagreement`) and shows it; `opts` null, or a table rule, empties and hides it. `rowsWhat`
 * names the rows predicted ("test rows", "rows").
 */
export function showCertified(box, opts, pred = null, rowsWhat = 'test rows') {
  const rule = opts?.rule;
  box.replaceChildren();
  box.hidden = !(pred && (rule === 'auto' || rule === 'lp'));
  if (box.hidden) return;
  const n = pred.treesUsed.length;
  const measured = `On these ${n.toLocaleString('en-GB')} ${rowsWhat}: ${fmt(pred.meanTrees, 1)} of ${pred.trees} trees per row on average` +
    (pred.disagreement === undefined ? '.' : `, ${pct(pred.disagreement, 1)} disagreement with the full vote ` +
      `(${Math.round(pred.disagreement * n)} of ${n}).`);
  if (rule === 'auto') {
    box.append(certificateBlock(pred.certificate));
    box.firstChild.insertBefore(h('p', { class: 'measured', text: measured }), box.firstChild.children[1] ?? null);
    return;
  }
  const block = h('div', { class: 'certificate', 'data-certified': 'no', 'data-strategy': 'lp' },
    h('p', {}, h('strong', { text: 'Not certified. ' }), document.createTextNode(
      `lp [KM26] is the strategy with the fewest trees on average whose mean disagreement with the full vote is at most ` +
      `1 − α = ${+(1 - opts.alpha).toFixed(4)} on the rows it was solved on (the calibration rows, else the out-of-bag ` +
      'votes). Nothing promises that on new rows: with few rows it can miss its target. Rule auto certifies it, or a table ' +
      'rule, from calibration rows.')),
    h('p', { class: 'measured', text: measured }));
  linkCitations(block);
  box.append(block);
}
