// The verdict: what the draw says so far (leader and P* against α), and once halted the answer, the trees
// saved and whether the full vote of all trees agrees.
import { fmt, h } from '../charts.js';

/**
 * Writes the verdict into `container`. data: {names: class names, trace: the row's VoteTrace,
 * drawn: votes drawn so far, alpha, halted, treesUsed: the library's forest.predict answer for the row}.
 */
export function render(container, { names, trace, drawn, alpha, halted, treesUsed }) {
  const T = trace.votes.length;
  const conf = drawn > 0 ? trace.confidence[drawn - 1] : NaN;
  const leader = drawn > 0 ? trace.leaders[drawn - 1] : -1; // the library's strict leader of the drawn tally
  if (halted) {
    const agrees = trace.classIndex === trace.fullClassIndex;
    const sorted = Array.from(trace.fullVotes).sort((a, b) => b - a);
    container.replaceChildren(
      h('p', { class: 'big' }, trace.haltedEarly
        ? `Stopped after ${drawn} of ${T} trees: ${trace.label}.`
        : `All ${T} trees drawn: no early stop.`),
      h('p', {}, trace.haltedEarly
        ? `P* = ${fmt(conf, 4)} ≥ α = ${alpha}. That is ${(T / drawn).toFixed(1)}× fewer trees than the full vote.`
        : 'The vote stayed too close for the rule to be sure before the end.'),
      h('p', { class: agrees ? 'ok' : 'bad' },
        `The full vote of all ${T} trees says ${names[trace.fullClassIndex]} (${sorted.slice(0, 2).join('–')}): `,
        h('strong', { text: agrees ? 'it agrees ✓' : 'it disagrees ✗ (this is the rare 1 − α case)' })),
      h('p', { class: 'muted small', text: `The library's prediction for this row (forest.predict) also stops after ${treesUsed} trees; ${drawn} marbles drawn here.` }),
    );
  } else if (drawn === 0) {
    container.replaceChildren(h('p', {}, `${T} marbles, colours unknown until drawn. Press Play or Step.`));
  } else {
    container.replaceChildren(
      h('p', { class: 'big' }, `Drawn ${drawn} of ${T}.`),
      h('p', {}, leader >= 0 ? `Leader: ${names[leader]}. P* = ${fmt(conf, 4)} < α = ${alpha}: keep drawing.`
        : 'A tie: no leader, keep drawing.'),
    );
  }
}
