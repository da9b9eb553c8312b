// Hand-written types for urnforest (emscripten 3.1.6 cannot emit them). Mirrors bindings/js/ (entry index.js)
// one-to-one; checked by `tsc --noEmit --strict tests/js/types_check.ts` in `npm test`.

/** Stable error codes of the core (never renamed; new ones are appended). */
export type UrnforestErrorCode =
  | 'InvalidArgument' | 'CsvEmpty' | 'CsvNoRows' | 'CsvRaggedRow' | 'CsvUnterminatedQuote'
  | 'CsvBadQuote' | 'CsvInvalidUtf8' | 'CsvDuplicateColumn' | 'TargetNotFound' | 'MissingLabel'
  | 'NonFiniteValue' | 'ShapeMismatch' | 'TooFewClasses' | 'LimitExceeded' | 'CorruptModel'
  | 'UnsupportedVersion' | 'UnknownClass' | 'ColumnMismatch' | 'OutOfMemory' | 'Internal'
  /** JS only: the object (or call) belongs to a wasm instance that aborted; `await init()` and retry. */
  | 'ModuleReset';

/**
 * A failure reported by the urnforest core. Bad arguments are TypeError/RangeError instead;
 * use of a disposed object is a plain Error.
 */
export class UrnforestError extends Error {
  constructor(code: UrnforestErrorCode | string, message: string, where?: { line?: number; column?: number });
  readonly name: 'UrnforestError';
  /** Stable machine-readable code, e.g. 'CsvRaggedRow'. */
  readonly code: UrnforestErrorCode | string;
  /** 1-based line in the CSV text; 0 when not applicable. */
  readonly line: number;
  /** 1-based column in the CSV text; 0 when not applicable. */
  readonly column: number;
}

export type FeatureType = 'numeric' | 'categorical';

export interface FromCSVOptions {
  /** Target column name; default: the last column; `null`: the text has no target column. */
  target?: string | null;
  /** Class index order: byte-wise sorted names (default) or order of first appearance. */
  classOrder?: 'sorted' | 'firstSeen';
  /** Read the text against this model's columns (by name, any order; unseen category → missing). */
  schemaOf?: Forest;
}

export interface FromArraysOptions {
  /** Number of rows (≥ 1). */
  rows: number;
  /** Number of feature columns (≥ 1). */
  cols: number;
  /** Class per row: indices (-1 = unknown) or class names. */
  labels?: Int32Array | string[];
  /** One name per column; default "x0", "x1", ... */
  featureNames?: string[];
  /** Class index → name; default: sorted distinct `labels` strings, or "0", "1", ... for indices. */
  classNames?: string[];
}

/** An immutable table of rows held in wasm memory. Call dispose() when done. */
export class Dataset {
  private constructor();
  /**
   * Parses CSV text with a header row: a string, or the file's UTF-8 bytes. Throws UrnforestError
   * (with line/column) on malformed input, 'OutOfMemory' when wasm cannot hold a copy of it.
   */
  static fromCSV(text: string | Uint8Array, options?: FromCSVOptions): Dataset;
  /** From a row-major matrix `x[row * cols + col]` of numeric features (NaN = missing). */
  static fromArrays(x: Float32Array, options: FromArraysOptions): Dataset;
  /** A new Dataset of the given rows (indices, repeats allowed), same schema. The caller owns it. */
  subset(rows: Uint32Array | Int32Array | number[]): Dataset;
  readonly numRows: number;
  readonly numFeatures: number;
  readonly classNames: string[];
  readonly featureNames: string[];
  readonly featureTypes: FeatureType[];
  /** '' when the data has no target column. */
  readonly targetName: string;
  readonly hasLabels: boolean;
  /** Class index per row (-1 = unknown); a copy; empty when hasLabels is false. */
  labels(): Int32Array;
  /** Row-major features (categorical values as category indices, NaN = missing); a copy. */
  toRowMajor(): Float32Array;
  readonly disposed: boolean;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}

export interface TrainOptions {
  /**
   * 'rf' (default): bootstrap + mtry features per node; 'bagging': bootstrap, all features;
   * 'adaboost': AdaBoost.M1 (SAMME beyond 2 classes) with CART trees, weighted vote (docs/pruning.md);
   * 'voteboost': vote-boosting ([SMS18]; options in `voteboost`, docs/voteboost.md).
   */
  ensemble?: EnsembleName;
  /** Vote-boosting options (needs ensemble 'voteboost'); as the CLI's --emphasis/--emphasis-b/--base. */
  voteboost?: VoteBoostOptions;
  /** AdaBoost options (needs ensemble 'adaboost'). */
  adaboost?: AdaBoostOptions;
  /**
   * Prune every tree: 'none' (default) or 'cv' = minimal cost-complexity pruning, alpha chosen by
   * stratified `treeFolds`-fold CV on the tree's own sample with the `treeSe`-SE rule (docs/voteboost.md).
   */
  treePruning?: 'none' | 'cv';
  /** Folds of the pruning CV, 2..100; default 10. */
  treeFolds?: number;
  /** k of the k-SE rule in [0, 10]; default 1 (the CART book's 1-SE rule); 0 = minimum CV error. */
  treeSe?: number;
  /** AdaBoost only: grow each tree on a weighted resample (default) or on the weights themselves. */
  boosting?: 'resample' | 'reweight';
  /** Number of trees, 1..100000; default 101. */
  trees?: number;
  /** Candidate features per node, 0..numFeatures; 0 (default) = by mtryRule. Ignored for bagging. */
  mtry?: number;
  /** Default mtry: floor(sqrt(M)) (default), floor(log2(M)), floor(log2(M) + 1). */
  mtryRule?: 'sqrt' | 'log2' | 'log2plus1';
  /** Maximum depth (root = 0); 0 (default) = unlimited. */
  maxDepth?: number;
  /** Minimum rows per leaf, ≥ 1; default 1. */
  minLeaf?: number;
  /** Random seed: non-negative safe integer or bigint below 2^64; default 1. */
  seed?: number | bigint;
  /** Called after each tree; return `false` to cancel (UrnforestError 'InvalidArgument'). */
  onProgress?: (done: number, total: number) => boolean | void;
}

export type EnsembleName = 'rf' | 'bagging' | 'adaboost' | 'voteboost';

/** Base learner of vote-boosting: random-forest tree (default), unpruned CART, stump, or cost-complexity-pruned CART. */
export type VoteBoostBaseName = 'random' | 'unpruned' | 'stump' | 'pruned';

/**
 * Vote-boosting [SMS18]: weights = beta(a, b) emphasis of the Laplace-corrected vote fraction.
 * Bad values throw RangeError/TypeError; a ≠ b with more than 2 classes throws UrnforestError 'InvalidArgument'.
 */
export interface VoteBoostOptions {
  /**
   * Emphasis a in [1e-6, 1e6] (default 1: a = b = 1 with random trees is the random forest of the same seed),
   * or 'cv': choose a = b by stratified 10-fold CV over the paper's grid (Forest.emphasisSelection).
   */
  a?: number | 'cv';
  /** Emphasis b in [1e-6, 1e6] (default: b = a, symmetric). Two classes only; not with a: 'cv'. */
  b?: number;
  /** Default 'random'. */
  base?: VoteBoostBaseName;
  /** With a: 'cv': trees of each CV ensemble, 0..100000 (0 = trees, the paper's choice). */
  cvTrees?: number;
}

/** AdaBoost's tree learner: as the CLI's `--base`. */
export interface AdaBoostOptions {
  /**
   * 'unpruned' (default, CART grown out), 'pruned' (cost-complexity pruning with internal CV: the
   * pruned-CART baseline of [SMS18]), 'stump' (depth 1) or 'depth:N' (max depth N; not with maxDepth).
   */
  base?: 'unpruned' | 'pruned' | 'stump' | `depth:${number}`;
}

/** The learner a model was trained with (Forest.learner). */
export interface LearnerInfo {
  ensemble: EnsembleName;
  maxDepth: number;
  minLeaf: number;
  treePruning: 'none' | 'cv';
  treeFolds: number;
  treeSe: number;
  /** Only for vote-boosted models; b resolved (= a when symmetric). */
  voteboost?: { a: number; b: number; base: VoteBoostBaseName };
}

/** The cross-validated choice of a = b (trainForest with voteboost.a = 'cv'). */
export interface EmphasisSelection {
  chosen: number;
  grid: Float64Array;
  /** Percent of training rows misclassified per grid value. */
  cvError: Float64Array;
}

export interface Prediction {
  /** Predicted class name per row. */
  labels: string[];
  /**
   * Predicted class index per row: the majority (ties → lowest index), or for AdaBoost the
   * weighted vote (as the CLI's `predict` without --rule).
   */
  classIndex: Int32Array;
  /** Unweighted vote counts, rows × classes, row-major. */
  votes: Uint32Array;
  /** AdaBoost only: summed tree weights per class, rows × classes, row-major. */
  scores?: Float64Array;
  /** Class index → name. */
  classNames: string[];
}

/** A trained ensemble held in wasm memory. Call dispose() when done. */
export class Forest {
  private constructor();
  /** Loads bytes from toBytes() or the native CLI. Throws UrnforestError 'CorruptModel' / 'UnsupportedVersion'. */
  static fromBytes(bytes: Uint8Array): Forest;
  /**
   * Full-ensemble vote for every row (the dataset must have the model's feature columns:
   * UrnforestError 'ColumnMismatch' otherwise).
   */
  predict(dataset: Dataset): Prediction;
  /**
   * Sequential voting that halts early: per row, trees are queried one at a time and the vote stops
   * as soon as the rule's table says the partial majority matches the full vote of the `trees`
   * queried trees with confidence `alpha`. The table is built on first use and cached with the
   * forest (up to 8 per forest, freed by dispose()). Throws TypeError/RangeError on bad options
   * (naming the option; `trees` > numTrees is a RangeError), UrnforestError 'ColumnMismatch' for
   * other columns, 'LimitExceeded' for hyper/1dir/ndir/optimal beyond their class limits
   * (hyper: ≤ 4 classes; optimal: ≤ 3). By default the full vote of all `trees` is computed too, for
   * the comparison fields; `compare: false` skips it (only the trees actually queried are walked,
   * so the saving is real time) and leaves fullClassIndex, fullVotes and disagreement undefined.
   */
  predict(dataset: Dataset, options: HaltingOptions & { compare?: true }): HaltedPrediction;
  predict(dataset: Dataset, options: HaltingOptions & { compare: false }): HaltedOnlyPrediction;
  predict(dataset: Dataset, options: HaltingOptions & { compare?: boolean }): HaltedPrediction | HaltedOnlyPrediction;
  predict(dataset: Dataset, options: FixedOrderOptions): HaltedPrediction;
  /** Every vote of row `row` (0-based index into `dataset`) in query order, with the stop point. */
  trace(dataset: Dataset, row: number, options: HaltingOptions): VoteTrace;
  /**
   * A new halting table of `options.rule` for this forest (prior from its out-of-bag votes), for
   * `options.trees` queried trees. The caller owns (and must dispose) it. `order`/`seed` are ignored.
   */
  haltingTable(options: HaltingOptions): HaltingTable;
  /**
   * Builds the halting table of `options.rule` at `options.alpha` for `options.trees` queried trees
   * and stores it with the model: toBytes() includes it, and haltingTable()/predict()/
   * trace() use it when rule, alpha (exactly) and trees match. Replaces one with the same key.
   */
  storeTable(options: StoreTableOptions): void;
  /** The halting tables stored with the model, in storage order. */
  storedTables(): StoredTableInfo[];
  /**
   * Predicted cost of `options.rule` averaged over the out-of-bag data prior (OOB histogram
   * deconvolved from the OOB votes' binomial noise for ≤ 4 classes; beyond, Monte Carlo over the rows' own rescaled OOB tallies), from training data alone. Exact when feasible
   * (`exact: true`), and Monte Carlo with `samples` draws (default 10000, 0 = none, seeded by `seed`).
   */
  expectedCost(options: HaltingOptions & { samples?: number }): CostEstimate;
  /**
   * The prior `rule` uses, fitted to the out-of-bag votes, for `options.trees` queried trees
   * (default numTrees). Throws UrnforestError 'LimitExceeded' for hyper/optimal with > 4 classes.
   */
  prior(rule: RuleName, options?: { trees?: number }): PriorInfo;
  /** Class index of each training row, aligned with oobVotes() (a copy). */
  trainLabels(): Int32Array;
  /** Vote weight of each tree (AdaBoost's alpha_t; a copy); empty for rf, bagging and vote-boosting. */
  treeWeights(): Float64Array;
  /** The ensemble kind and tree learner stored in the model. */
  readonly learner: LearnerInfo;
  /** The CV choice of a = b when trained with voteboost.a = 'cv' (not stored in the bytes); else undefined. */
  readonly emphasisSelection: EmphasisSelection | undefined;
  /**
   * Ordered aggregation on labelled `dataset` (normally the training data): the order of all
   * numTrees trees. Throws UrnforestError 'MissingLabel' without labels.
   */
  order(dataset: Dataset, options?: OrderOptions): Int32Array;
  /**
   * Static pruning: a NEW Forest of trees order[0..keep) in that order (the caller disposes it).
   * With `training` (the exact training set) a random forest's or bagging's OOB votes are recomputed.
   */
  prune(order: Int32Array | readonly number[], keep: number, options?: { training?: Dataset }): Forest;
  /** Error rate in [0, 1] of the first u trees of `order` on labelled `dataset`, u = 1..order.length (thesis Fig. 3.1). */
  errorCurve(dataset: Dataset, order: Int32Array | readonly number[]): Float64Array;
  /** Versioned binary model (a copy). */
  toBytes(): Uint8Array;
  readonly numTrees: number;
  readonly numClasses: number;
  readonly numFeatures: number;
  readonly numNodes: number;
  /** Out-of-bag error of the training data, in [0, 1]. */
  readonly oobError: number;
  /** Out-of-bag vote counts, training rows × classes, row-major (a copy). */
  oobVotes(): Uint32Array;
  readonly classNames: string[];
  readonly featureNames: string[];
  readonly featureTypes: FeatureType[];
  readonly disposed: boolean;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}

/** Halting rules (see docs/api.md): 'alpha1' never changes the full vote's answer. */
export type RuleName = 'alpha1' | 'siba' | 'hyper' | '1dir' | 'ndir' | 'infinite' | 'optimal';
/** All rule names, in the core's order. */
export const rules: readonly RuleName[];

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

export interface OrderOptions {
  /** Heuristic; default 'boosting'. */
  ordering?: OrderingName;
  /** reduce-error only: back-fitting passes, 0..100; default 0. */
  backfit?: number;
  /** margin-distance only: coordinate of the reference point, in (0, 1); default 0.075. */
  mdmP?: number;
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
  /** Number of trees queried at most (the table's T). */
  trees: number;
  classNames: string[];
  rule: RuleName;
  alpha: number;
}

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

export interface PriorInfo {
  kind: 'uniform' | 'dirichlet' | 'mixture' | 'histogram';
  classes: number;
  /** T the masses are for. */
  trees: number;
  /** Dirichlet components (uniform: one with beta = 1); empty for histograms. */
  components: { weight: number; beta: Float64Array }[];
  /**
   * Mass of each final tally of `trees` votes (l ≤ 4; null beyond), indexed by tally rank:
   * rank(T_1..T_l) = Σ_{i=1}^{l-1} C(T_1 + … + T_i + i - 1, i); for l = 2 the index is the votes of class 0.
   */
  finalTallyMass: Float64Array | null;
}

/** A precomputed halting table (wasm memory; dispose() when done). */
export class HaltingTable {
  private constructor();
  /** Loads toBytes() output. Throws UrnforestError 'CorruptModel' / 'UnsupportedVersion'. */
  static fromBytes(bytes: Uint8Array): HaltingTable;
  readonly rule: RuleName;
  readonly alpha: number;
  /** T, the number of trees queried. */
  readonly numTrees: number;
  readonly numClasses: number;
  /** False if some exact halting set was not monotone (thresholds made conservative). */
  readonly monotone: boolean;
  readonly layout: 'thresholds' | 'pairwiseBound' | 'leadRule' | 'infiniteProduct';
  /** True when voting may stop at `tally` (numClasses non-negative integers summing to ≤ numTrees). */
  halts(tally: ArrayLike<number>): boolean;
  /** The rule's confidence for the strict leader (P*, a bound, or L); 0 without a strict leader. */
  confidence(tally: ArrayLike<number>): number;
  /** The strict leader's class index, or -1 on a tie for first place. */
  leader(tally: ArrayLike<number>): number;
  /** Minimum votes of class c to halt given the other classes' counts (class order, skipping c); numTrees + 1 if never. */
  minLeaderVotes(c: number, others: ArrayLike<number>): number;
  /** Two classes only (RangeError otherwise): entry k = minimum votes of class c when the other has k. */
  binaryThresholds(c: number): Int32Array;
  /**
   * Exact expected cost for a final tally (`final`, summing to numTrees; Monte Carlo only if
   * samples > 0), or averaged over the table's prior (samples default 10000). A table loaded with
   * fromBytes for a prior-based rule has no prior: UrnforestError 'InvalidArgument' without `final`.
   */
  expectedCost(options?: { final?: ArrayLike<number>; samples?: number; seed?: number | bigint }): CostEstimate;
  /** Versioned bytes (a copy), e.g. to move a table between threads. */
  toBytes(): Uint8Array;
  readonly disposed: boolean;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}

export interface HaltingTableOptions {
  /** 'alpha1' | 'siba' | 'infinite' (the others need a forest: RangeError). */
  rule: RuleName;
  /** T, 1..100000; default 101. */
  trees?: number;
  /** l, 2..4096; default 2. */
  classes?: number;
  /** (0, 1]; default 0.99. */
  alpha?: number;
}

/** A table for a rule that needs no data prior. The caller owns (and must dispose) it. */
export function haltingTable(options: HaltingTableOptions): HaltingTable;

export interface PStarResult {
  /** Probability that the strict leader wins the full vote (exact or, see `exact`, a lower bound). */
  pstar: number;
  /** Strict leader, -1 on a tie. */
  leader: number;
  /** Whether the rule's table halts here. */
  halt: boolean;
  /** False for lower bounds ('infinite' with > 2 classes, 'siba' with > 4 classes). */
  exact: boolean;
}

/** P* of a partial tally for 'alpha1' | 'siba' | 'infinite'; votes sum to ≤ trees; classes defaults to votes.length. */
export function pstar(options: { rule: RuleName; trees: number; classes?: number; votes: ArrayLike<number>; alpha?: number }): PStarResult;

/** Trains a forest; the caller owns (and must dispose) the result. */
export function trainForest(dataset: Dataset, options?: TrainOptions): Forest;

export type GeneratorName = 'twonorm' | 'threenorm' | 'ringnorm' | 'waveform' | 'led' | 'circle';
/** Names of the synthetic problems runExperiment accepts as `data`. */
export function generators(): string[];

export interface ExperimentOptions {
  /** A labelled Dataset (k-fold CV, or repeated holdout with `holdout`) or a synthetic problem. */
  data: Dataset | GeneratorName;
  /** Reported as `dataset` (default: the generator name, or ''). */
  name?: string;
  /** Synthetic: training rows per repetition (default 300) and test rows (default 1000). */
  train?: number;
  test?: number;
  ensemble?: EnsembleName;
  boosting?: 'resample' | 'reweight';
  /** T, 1..100000; default 101. */
  trees?: number;
  mtry?: number;
  mtryRule?: 'sqrt' | 'log2' | 'log2plus1';
  /** One alpha or several (then `alpha_sweep`); default 0.99. */
  alpha?: number | readonly number[];
  /** Default ['alpha1', 'siba', 'hyper']. */
  rules?: readonly RuleName[];
  /** k-fold: folds (default 10); repeats (default 10 for k-fold, 100 for holdout and synthetic). */
  folds?: number;
  repeats?: number;
  /** Repeated holdout with this test fraction in (0, 1), instead of k-fold. */
  holdout?: number;
  /** Stratified partitions (default true). */
  stratified?: boolean;
  seed?: number | bigint;
  /** > 0: an independent proxy ensemble of this many trees per partition. */
  proxyTrees?: number;
  /** Monte Carlo draws for expected cost beyond 4 classes; default 20000. */
  samples?: number;
  /** Double pruning: order each partition's ensemble by this heuristic and keep `keep` trees. */
  prune?: OrderingName;
  /** With prune: trees kept, 1..trees; default ceil(0.2 T). */
  keep?: number;
  /** Query order: the ensemble's order (default; IB-SEQ) or a random permutation per row (IB-PERM). */
  queryOrder?: 'ordered' | 'random';
  /** As TrainOptions (the CLI's --emphasis/--base/--cv-trees; a: 'cv' selects a = b per partition). */
  voteboost?: VoteBoostOptions;
  adaboost?: AdaBoostOptions;
  treePruning?: 'none' | 'cv';
  treeFolds?: number;
  treeSe?: number;
  /** Maximum tree depth; 0 (default) = unlimited. */
  maxDepth?: number;
  /** Fraction of each partition's training labels flipped, in [0, 1]; default 0. */
  noise?: number;
}

export interface MeanStd { mean: number | null; std: number | null }

/** The CLI's `experiment --json` document (docs/experiments.md); more fields may appear. */
export interface ExperimentReport {
  dataset: string;
  rows: number;
  features: number;
  classes: number;
  partitions: number;
  protocol: 'kfold' | 'holdout' | 'synthetic';
  repeats: number;
  ensemble: EnsembleName;
  trees: number;
  mtry: number;
  alpha: number;
  alphas: number[];
  seed: number;
  query_order: 'ordered' | 'random';
  seconds: number;
  full: { error: MeanStd; trees: MeanStd; trees_alpha1: MeanStd; ensemble_trees: number; oob_error: MeanStd;
    [field: string]: unknown };
  pruned?: { size: number; ordering: OrderingName; error: MeanStd };
  rules: { [rule: string]: { [metric: string]: MeanStd | string } };
  alpha_sweep?: { alpha: number; rules: ExperimentReport['rules'] }[];
  [field: string]: unknown;
}

/**
 * Runs the experiment harness (the CLI's `experiment`): the same JSON-shaped report. onProgress is
 * called with (partitions done, total); returning false cancels (UrnforestError 'InvalidArgument').
 */
export function runExperiment(options: ExperimentOptions,
  control?: { onProgress?: (done: number, total: number) => boolean | void }): ExperimentReport;

export interface MemoryStats {
  /** Size of the wasm linear memory in bytes (grows, never shrinks). */
  heapBytes: number;
  /** Bytes currently allocated inside it. */
  inUse: number;
}
export function memoryStats(): MemoryStats;

export interface Urnforest {
  Dataset: typeof Dataset;
  Forest: typeof Forest;
  HaltingTable: typeof HaltingTable;
  trainForest: typeof trainForest;
  haltingTable: typeof haltingTable;
  pstar: typeof pstar;
  rules: typeof rules;
  UrnforestError: typeof UrnforestError;
  memoryStats: typeof memoryStats;
  init: typeof init;
  orderings: typeof orderings;
  runExperiment: typeof runExperiment;
  generators: typeof generators;
}

/** Loads the embedded WebAssembly module (no network request). Every call resolves to the same API. */
export function init(): Promise<Urnforest>;
