// Part of dist/index.d.ts: generators and runExperiment's options and report.
export function trainForest(dataset: Dataset, options?: TrainOptions): Forest;
/**
 * Trees first .. first + count - 1 of the forest trainForest(dataset, options) grows ('rf' and 'bagging'
 * only: each tree is drawn from (seed, tree index)), as a Forest of `count` trees whose out-of-bag votes
 * count only those trees; join the parts' bytes with Forest.mergeParts to get trainForest's
 * forest byte for byte (what UrnforestWorker's `threads` does). RangeError for a range outside the trees.
 */
export function trainForestPart(dataset: Dataset, options: TrainOptions | undefined, part: { first: number; count: number }): Forest;

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
  /**
   * The most work the experiment may start, in row-trees (every tree grown times its training rows,
   * over all partitions; pruning and emphasis CV counted); default 1e9 (roughly 10-30 minutes on one
   * core natively). Above it: UrnforestError 'LimitExceeded' before any work, naming the estimate.
   */
  maxWork?: number;
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
 * called with (partitions done, total) before the first partition and after each one; returning false
 * cancels (UrnforestError 'InvalidArgument', "cancelled").
 */
export function runExperiment(options: ExperimentOptions,
  control?: { onProgress?: (done: number, total: number) => boolean | void }): ExperimentReport;

