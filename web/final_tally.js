// The demo's two uses of the prior's rank-indexed finalTallyMass, each behind one function so that moving
// to the library's final-tally posterior (core FinalTallyPosterior, [SSM16] §2) changes one line here:
// until then math.js's prepareTallies / finalTallyPosterior / priorMarginal (with tallyRank) compute them.
import { finalTallyPosterior, prepareTallies, priorMarginal } from './math.js';

/**
 * The urn posterior for `prior` (forest.prior(rule)) of a model with l classes and T trees: a function
 * tally → {l2, win, agree, leader} (see math.js finalTallyPosterior), or null when the prior has no
 * final-tally mass. Used by app.posterior (the urn's posterior picture).
 */
export function posteriorFor(prior, l, T) {
  if (!prior.finalTallyMass) return null;
  const prep = prepareTallies(prior.finalTallyMass, l, T);
  return (tally) => finalTallyPosterior(prep, tally);
}

/**
 * The prior's distribution of the final vote's statistic (two classes: votes for class 0; more: the
 * winner's votes) over v = 0..T, a Float64Array; null when the prior has no final-tally mass. Used by the
 * prior view's curves.
 */
export function priorStatistic(prior, l, T) {
  return prior.finalTallyMass ? priorMarginal(prior.finalTallyMass, T, l) : null;
}
