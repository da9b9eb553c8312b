// Part of dist/index.d.ts: trainForest's options, learner names and infos, and the full-vote Prediction.

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
  /** Maximum depth (root = 0), 0..100000 (the core's bound for every front end); 0 (default) = unlimited. */
  maxDepth?: number;
  /** Minimum rows per leaf, 1..2^26; default 1. */
  minLeaf?: number;
  /** Random seed: non-negative safe integer or bigint below 2^64; default 1. */
  seed?: number | bigint;
  /**
   * Called after each tree; return `false` to cancel (UrnforestError 'InvalidArgument'). With
   * voteboost.a = 'cv' the cross-validation's trees count too: total = its trees + trees.
   */
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
  /**
   * True when the trees were grown until their leaves are pure: not pruned (treePruning 'none', no
   * vote-boosting 'pruned' base), maxDepth 0, minLeaf 1 and no vote-boosting 'stump' base (the core's
   * GrownToPurity). Such trees are right on every in-bag row, so their training votes hardly tell them
   * apart when ordering (`Forest.order` warns; order them on out-of-bag votes).
   */
  grownToPurity: boolean;
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
  /**
   * Class probabilities, rows × classes, row-major, each row summing to 1: the vote shares
   * votes / T; AdaBoost: weighted vote shares; an imported model's soft vote: its own probabilities.
   */
  probabilities: Float64Array;
  /** Class index → name. */
  classNames: string[];
}

/** A trained ensemble held in wasm memory. Call dispose() when done. */
