// Part of dist/index.d.ts: halting rules and options, halted predictions, traces, costs, priors and posteriors.
export type RuleName = 'alpha1' | 'siba' | 'hyper' | '1dir' | 'ndir' | 'infinite' | 'optimal';
/** All rule names, in the core's order (its rule table; usable before init()). */
export const rules: readonly RuleName[];

/** A halting rule's traits, from the core's rule table (the CLI's `urnforest rules --json`). */
export interface RuleInfo {
  readonly name: RuleName;
  /** A few words for a menu or a parenthesis, e.g. 'uniform prior'. */
  readonly summary: string;
  /** One line: what the rule does, with its paper key (e.g. '[SSM16] §2.2'). */
  readonly description: string;
  /** The paper key and section the rule comes from, or 'urnforest' for a rule of this library's own. */
  readonly source: string;
  /** True for the papers' rules; false for 'optimal'. */
  readonly fromPapers: boolean;
  /** True when the rule's table needs a prior fitted to training votes (the forest's out-of-bag or calibration votes). */
  readonly needsPrior: boolean;
  /** True when tables too large to build in full are decided on demand (every rule but 'alpha1', which needs no table). */
  readonly onDemand: boolean;
  /** True when the confidence is agreement with the infinite ensemble ('infinite'), not P* of the T-tree vote. */
  readonly infiniteEnsemble: boolean;
  /** Largest number of classes with a full (threshold) table; beyond it the on-demand layout (0: no threshold table). */
  readonly fullTableMaxClasses: number;
  /** Largest number of tallies C(T + l, l) of a full table. */
  readonly fullTableMaxStates: number;
  /** The number of classes and of trees the rule accepts: every rule runs at any l ≤ maxClasses and T ≤ maxTrees. */
  readonly maxClasses: number;
  readonly maxTrees: number;
}
/** Every rule's traits, in the order of `rules` (usable before init()). */
export const ruleInfo: readonly RuleInfo[];

export interface HaltingOptions {
  /** The halting rule (required). */
  rule: RuleName;
  /** Target confidence in (0, 1]; default 0.99. For 'infinite' it is the threshold pi (strict). */
  alpha?: number;
  /**
   * Query order: tree ids 0, 1, … (default) or a seeded random permutation per row (the default
   * for a vote-boosted forest, whose finite-T rules hold only in a random order).
   */
  order?: 'generation' | 'random';
  /** Seed of the random order (and of Monte Carlo draws): as TrainOptions.seed; default 1. */
  seed?: number | bigint;
  /** Size of the ensemble queried (trees 0..trees-1), 1..numTrees; default numTrees. */
  trees?: number;
}

/** Which table Forest.storeTable() builds and stores. */
export interface StoreTableOptions {
  /** The halting rule (required). */
  rule: RuleName;
  /** Target confidence in (0, 1]; default 0.99. */
  alpha?: number;
  /** Trees queried, 1..numTrees; default numTrees. */
  trees?: number;
}

/** A halting table stored with a model (Forest.storedTables()). */
export interface StoredTableInfo {
  rule: RuleName;
  alpha: number;
  trees: number;
}

/** predict() querying a given list of trees in a given order (e.g. an ordered-aggregation order). */
export interface FixedOrderOptions {
  rule: RuleName;
  alpha?: number;
  order: 'fixed';
  /** Distinct tree ids queried in this order; the table is built for fixedOrder.length trees. */
  fixedOrder: Int32Array | readonly number[];
  /** If given, must equal fixedOrder.length. */
  trees?: number;
}

export type OrderingName = 'early' | 'reduce-error' | 'complementarity' | 'margin-distance' |
  'orientation' | 'boosting' | 'kappa' | 'greedy-sdp';
/** All ordering names, in the core's order. */
export const orderings: readonly OrderingName[];
/**
 * The trees static pruning keeps of an ensemble of `trees` trees when no number is named (the
 * experiment's `keep`, the CLI's `--keep` default): ⌈0.2 T⌉, at least one (21 of 101), the core's
 * DefaultKeep. `trees` in 1..100000 (RangeError outside, TypeError for a non-integer). Needs init().
 */
export function defaultKeep(trees: number): number;

export interface OrderOptions {
  /** Heuristic; default 'boosting'. */
  ordering?: OrderingName;
  /** reduce-error only: back-fitting passes, 0..100; default 0. */
  backfit?: number;
  /** margin-distance only: coordinate of the reference point, in (0, 1); default 0.075. */
  mdmP?: number;
  /**
   * The votes the ordering is evaluated on: 'data' (default; every tree on `dataset`) or 'oob'
   * (each tree on the training rows its bootstrap left out; `dataset` must be the exact training
   * set of a random forest or bagging model; orderings 'early' and 'boosting' only).
   */
  on?: 'data' | 'oob';
}

/** Forest.orderReport(): the order with what it was evaluated on and the warnings that apply. */
export interface OrderReport {
  /** Permutation of 0..numTrees-1, as order() returns. */
  order: Int32Array;
  on: 'data' | 'oob';
  /** Plain-English warnings (empty when none), e.g. unpruned trees ordered on their own training data. */
  warnings: string[];
}

export interface HaltedPrediction {
  /** Sequential prediction per row (class names). */
  labels: string[];
  /** Sequential prediction per row (class indices). */
  classIndex: Int32Array;
  /** Trees queried per row, 1..trees. */
  treesUsed: Int32Array;
  /** The rule's confidence at the stop (1 when all trees were used by a finite-T rule). */
  confidence: Float64Array;
  /**
   * Per row the posterior mean of the final vote shares given the votes drawn, under the rule's
   * prior ([SSM16]; docs/halting.md): (votes drawn + E[votes left | drawn]) / trees; rows ×
   * classes, row-major, each row summing to 1; votes / trees for a row that drew every tree.
   * Computed on first read (a getter, from `tallies`). An imported model's soft vote (rule 'alpha1',
   * the exact early exit): the model's own class probabilities of the rows (its soft prediction,
   * docs/api.md), which its label always equals; computed by the core on first read, with every
   * tree, so `dataset` must still be live then.
   */
  probabilities?: Float64Array;
  /** The votes each row drew per class before it stopped, rows × classes, row-major (each row sums to treesUsed). */
  tallies: Int32Array;
  /** 1 when the rule stopped before the last tree. */
  haltedEarly: Uint8Array;
  /** Full vote of the `trees` queried trees per row (ties → lowest index). */
  fullClassIndex: Int32Array;
  /** Vote counts of the `trees` queried trees, rows × classes, row-major. */
  fullVotes: Uint32Array;
  /** Fraction of rows where classIndex differs from fullClassIndex, in [0, 1]. */
  disagreement: number;
  /** Mean of treesUsed. */
  meanTrees: number;
  /**
   * What the halting table cost this call (table rules only): 'built' on the first call with
   * these rule/alpha/trees (ms: the build), 'stored' when the model carries it (Forest.storeTable;
   * ms: the copy), 'cached' afterwards (ms 0).
   */
  table?: { source: 'built' | 'stored' | 'cached'; ms: number };
  /** Number of trees queried at most (the table's T). */
  trees: number;
  classNames: string[];
  rule: RuleName;
  alpha: number;
  /**
   * Imported forests only: the full prediction compared against ('soft': the model's own,
   * fullClassIndex is its prediction; rule 'alpha1' with 'soft' is the exact early exit, whose
   * answer always equals it). fullVotes stay the trees' hard votes (empty for additive models).
   */
  vote?: Vote;
}

/** Caller-owned arrays for Forest.predict's third argument. */
export interface HaltedOut {
  classIndex?: Int32Array;
  treesUsed?: Int32Array;
  confidence?: Float64Array;
  haltedEarly?: Uint8Array;
}

/** Forest.predict's result written into caller-owned arrays: `O`'s arrays, filled. */
export type HaltedInto<O extends HaltedOut> = { [K in keyof O]: O[K] } & {
  meanTrees: number;
  /** Rows written (the data set's numRows). */
  rows: number;
  trees: number;
  readonly classNames: readonly string[];
  rule: RuleName;
  alpha: number;
  table: { source: 'built' | 'stored' | 'cached'; ms: number };
};

/** A halted prediction made with `compare: false`: no full vote was computed. */
export type HaltedOnlyPrediction =
  Omit<HaltedPrediction, 'fullClassIndex' | 'fullVotes' | 'disagreement'> &
  { fullClassIndex: undefined; fullVotes: undefined; disagreement: undefined };

export interface VoteTrace {
  /** Tree ids in query order (all `trees`). */
  trees: Int32Array;
  /** Their votes (class indices), all of them, also after the stop. */
  votes: Int32Array;
  /** The rule's confidence after each vote. */
  confidence: Float64Array;
  /** The strict leader after each vote (all `trees`): the class with the most votes so far, -1 on a tie. */
  leaders: Int32Array;
  /** Stop point: votes[0 .. treesUsed-1] were used. */
  treesUsed: number;
  haltedEarly: boolean;
  /** The sequential prediction. */
  classIndex: number;
  label: string;
  /** The full vote of all `trees` votes (ties → lowest index). */
  fullClassIndex: number;
  /** Counts per class of all `trees` votes. */
  fullVotes: Uint32Array;
  classNames: string[];
  rule: RuleName;
  alpha: number;
}

export interface CostEstimate {
  /** E[trees queried] (exact, or the Monte Carlo value when exact is false). */
  expectedTrees: number;
  /** P(sequential answer ≠ full vote) (exact, or Monte Carlo). */
  disagreement: number;
  /** Exact only: stopProbability[t] = P(stop after exactly t votes), t = 0..T; else null. */
  stopProbability: Float64Array | null;
  /** True when expectedTrees/disagreement are exact. */
  exact: boolean;
  /** Why the exact value is unavailable (too many states; l > 4), when exact is false. */
  exactUnavailable?: string;
  /** Monte Carlo estimates (NaN when samples = 0). */
  monteCarloTrees: number;
  monteCarloDisagreement: number;
  monteCarloSamples: number;
}

/** Forest.posterior()'s options. */
export interface PosteriorOptions {
  /** The rule whose prior is used (required). */
  rule: RuleName;
  /** T, the votes of a final tally, 1..numTrees; default numTrees. */
  trees?: number;
}

/**
 * A two-class randomised stopping strategy over the states (i, j): i trees asked (0..numTrees), j of
 * them voting for class index 1 (0..i); state (i, j) is entry i (i + 1) / 2 + j of each array.
 */
export interface StoppingRegion {
  rule: 'lp';
  alpha: number;
  /** N, the forest's trees. */
  numTrees: number;
  /**
   * Per state, the probability in [0, 1] that a row stops there: each row draws one of the strategy's
   * two deterministic stopping sets, so a cell where only one stops has that set's share (a randomised
   * cell), not conditioned on reaching the state. 0 at (0, 0); 1 at every i = numTrees.
   */
  stopProbability: Float64Array;
  /** Per state, the class index (0 or 1) a row that stops there answers. */
  answer: Uint8Array;
  /** Mean trees per row under the distribution of final votes the strategy was solved for. */
  expectedTrees: number;
  /** Mean disagreement with the full vote under that distribution: 1 − alpha at most (up to rounding). */
  expectedDisagreement: number;
}

/** The final tallies a partial tally can still reach, with their posterior probabilities. */
export interface TallyPosterior {
  numClasses: number;
  /** T: every final tally sums to it. */
  numTrees: number;
  /** The final tallies in lexicographic order, n × numClasses, row-major. */
  tallies: Int32Array;
  /** P(final tally k | partial tally), n entries summing to 1. */
  probability: Float64Array;
  /**
   * P(class c is the strict winner of the final tally | partial tally), numClasses entries: the sum
   * of `probability` over the final tallies whose strict leader is c (1 minus the tie mass in all).
   */
  win: Float64Array;
  /** The partial tally's strict leader, -1 on a tie: `win[leader]` is the rule's P*. */
  leader: number;
}

export interface PriorInfo {
  /**
   * 'histogram': hyper's smoothed out-of-bag histogram over every final tally (small T, l ≤ 4);
   * 'tallyMixture': the same masses as point masses at the smoothed tallies plus a uniform part
   * (l ≤ 4, larger T); 'mixture': ndir, and hyper for l ≥ 5 (Dirichlet kernels around k-means
   * centres of the training rows' out-of-bag vote rates, plus a uniform part).
   */
  kind: 'uniform' | 'dirichlet' | 'mixture' | 'histogram' | 'tallyMixture';
  classes: number;
  /** T the masses are for. */
  trees: number;
  /** Dirichlet components (uniform: one with beta = 1); empty for histograms. */
  components: { weight: number; beta: Float64Array }[];
  /** 'tallyMixture': the point masses' final tallies, numClasses counts each (row-major). */
  support?: Int32Array;
  /** 'tallyMixture': one weight per point mass. */
  weights?: Float64Array;
  /** 'tallyMixture': the uniform part's weight (weights plus it sum to 1). */
  uniformWeight?: number;
  /**
   * Mass of each final tally of `trees` votes (l ≤ 4 and at most 20,000,000 tallies; null
   * beyond), indexed by tally rank:
   * rank(T_1..T_l) = Σ_{i=1}^{l-1} C(T_1 + … + T_i + i - 1, i); for l = 2 the index is the votes of class 0.
   */
  finalTallyMass: Float64Array | null;
}

/** A precomputed halting table (wasm memory; dispose() when done). */
