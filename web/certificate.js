// Rule 'auto''s certificate in words a student can check: which stopping strategy was chosen, what α and δ
// promise about its disagreement with the full vote and from how many calibration rows, or, when nothing
// that saves trees was certified, why and how many rows would be needed. The promise and the test behind
// it are docs/halting.md's "Certified halting"; the strategies' papers are in the page's references.
import { fmt, h, pct } from './charts.js';
import { linkCitations } from './cite.js';

/** What each strategy of a certificate is, in a phrase (certificate.strategy → words). */
const STRATEGY = {
  siba: (p) => `the siba halting table (uniform prior [SSM16]) run at internal confidence ${fmt(p, 4)}`,
  hyper: (p) => `the hyper halting table (prior fitted on the calibration rows [SSM16]) run at internal confidence ${fmt(p, 4)}`,
  lp: (p) => `the LP-optimal stopping strategy of [KM26], solved for a mean disagreement of ${pct(p, 2)}`,
  exact: () => 'the exact exit: stop only when the trees left cannot change the answer',
};

/** The number of rows `n` in words ("1 row", "75 rows"). */
function rows(n) { return `${n.toLocaleString('en-GB')} row${n === 1 ? '' : 's'}`; }

/**
 * A block explaining `certificate` (answer.certificate of predict({rule: 'auto'})): a headline, the
 * promise or the reason, and where to read more. data-certified ('yes' / 'no') and data-strategy say
 * which, for tests.
 */
export function certificateBlock(certificate) {
  const c = certificate;
  const what = (STRATEGY[c.strategy] ?? STRATEGY.exact)(c.parameter);
  const parts = [];
  if (c.certified) {
    parts.push(h('p', {}, h('strong', { text: 'Certified. ' }),
      document.createTextNode(`auto chose ${what}. Its disagreement with the full vote is at most ${pct(c.bound, 1)} ` +
        `(≤ 1 − α = ${pct(1 - c.alpha, 1)}), with probability at least ${pct(1 - c.delta, 1)} (1 − δ) over the calibration ` +
        `rows: fitted on ${rows(c.fitRows)}, certified on ${c.certifyRows.toLocaleString('en-GB')} others.`)));
  } else {
    const more = c.rowsNeeded === null || c.rowsNeeded === undefined ? ''
      : ` With ${rows(c.rowsNeeded)} of calibration (a quarter to fit, the rest to certify), a strategy that never disagreed on them would be certified at α = ${c.alpha}.`;
    parts.push(h('p', {}, h('strong', { text: 'Not certified. ' }),
      document.createTextNode(`auto answers with ${what}, so every answer equals the full model's. ` +
        `Why: ${c.reason}.${more}`)));
  }
  parts.push(h('p', { class: 'small muted' },
    document.createTextNode('What this promises: if future rows are drawn like the calibration rows, then with probability ' +
      '1 − δ over those rows the mean disagreement on future rows is at most 1 − α. It is a promise about the mean, not about ' +
      'any single row, and it says nothing about rows unlike the calibration rows. The test: Learn then Test [ABC21] with ' +
      'a betting bound [WR24]; details in '),
    h('a', { href: '../docs/halting.md', text: 'docs/halting.md, “Certified halting”' }),
    document.createTextNode('.')));
  const box = h('div', { class: 'certificate', 'data-certified': c.certified ? 'yes' : 'no', 'data-strategy': c.strategy }, ...parts);
  linkCitations(box);
  return box;
}
