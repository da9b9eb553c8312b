// The urn's verdict for rules auto and lp: where the strategy the library ran (auto's certified choice, its exact
// exit, or lp) stopped this row and why, in words; the stop itself is the library's prediction for the row
// (forest.predict), the votes the trace's (same query order). Rule auto's certificate is shown above the urn
// (certificate.js); this says what it meant for the row drawn.
import { fmt, h } from '../charts.js';

/** Why the strategy `strategy` stops at the tally `t` after `n` of `T` draws (`conf`: P* for siba). */
function why(strategy, { n, T, t, conf, parameter, alpha }) {
  const sorted = [...t].sort((a, b) => b - a);
  const lead = sorted[0] - (sorted[1] ?? 0);
  if (strategy === 'siba') {
    return `auto's certified strategy is the siba table at internal confidence ${fmt(parameter, 4)} (not α = ${alpha}: ` +
      `the certificate chose that threshold so that the disagreement stays within 1 − α). Here P* = ${fmt(conf, 4)} ≥ ${fmt(parameter, 4)}.`;
  }
  if (strategy === 'hyper') {
    return `auto's certified strategy is the hyper table at internal confidence ${fmt(parameter, 4)}, with its prior fitted on ` +
      'the calibration rows: it judged the lead safe here.';
  }
  if (strategy === 'lp') {
    return 'The LP strategy [KM26] stops on this tally (in a cell it stops only sometimes, a seeded coin per row decided).';
  }
  if (n === T) return `Nothing was certified, so auto used the exact exit: the vote stayed close, so it needed all ${T} trees.`;
  return `Nothing was certified, so auto used the exact exit: it stops only when the leader's lead (${lead}) is larger ` +
    `than the ${T - n} trees left, so that no outcome of the rest can change the answer. Its answer always equals the full vote.`;
}

/**
 * Writes the verdict into `container`. data: {names, trace (the row's votes, with treesUsed, haltedEarly,
 * classIndex and label of the library's prediction), drawn, halted, strategy ('siba' | 'hyper' | 'lp' |
 * 'exact'), parameter (the strategy's threshold), alpha, conf (P* after the stop for siba, else NaN)}.
 */
export function render(container, { names, trace, drawn, halted, strategy, parameter, alpha, conf }) {
  const T = trace.votes.length;
  const t = new Array(names.length).fill(0);
  for (let k = 0; k < drawn; k++) t[trace.votes[k]]++;
  if (!halted) {
    container.replaceChildren(drawn === 0
      ? h('p', {}, `${T} marbles, colours unknown until drawn. Press Play or Step.`)
      : h('p', { class: 'big' }, `Drawn ${drawn} of ${T}: ${t.map((c, i) => `${names[i]} ${c}`).join(', ')}.`));
    return;
  }
  const agrees = trace.classIndex === trace.fullClassIndex;
  const full = Array.from(trace.fullVotes).sort((a, b) => b - a);
  container.replaceChildren(
    h('p', { class: 'big' }, drawn < T ? `Stopped after ${drawn} of ${T} trees: ${trace.label}.` : `All ${T} trees drawn: ${trace.label}.`),
    h('p', {}, why(strategy, { n: drawn, T, t, conf, parameter, alpha })),
    h('p', { class: agrees ? 'ok' : 'bad' },
      `The full vote of all ${T} trees says ${names[trace.fullClassIndex]} (${full.slice(0, 2).join('–')}): `,
      h('strong', { text: agrees ? 'it agrees ✓' : 'it disagrees ✗ (one of the rare rows the 1 − α allows)' })),
    h('p', { class: 'muted small', text: `The library's prediction for this row (forest.predict) stops after ${trace.treesUsed} trees; ${drawn} marbles drawn here.` }),
  );
}
