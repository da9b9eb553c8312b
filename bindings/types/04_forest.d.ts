// Part of dist/index.d.ts: the Forest class.
export class Forest {
  private constructor();
  /** Loads bytes from toBytes() or the native CLI. Throws UrnforestError 'CorruptModel' / 'UnsupportedVersion'. */
  static fromBytes(bytes: Uint8Array): Forest;
  /** trainForest's forest from the bytes of its parts (trainForestPart) in tree order, byte for byte. */
  static mergeParts(parts: Uint8Array[]): Forest;
  /**
   * Imports a tree-ensemble classifier exported to ONNX (ai.onnx.ml TreeEnsembleClassifier of
   * opsets 1 and 3, or an opset-5 TreeEnsemble followed by ArgMax: scikit-learn, Spark MLlib,
   * XGBoost, LightGBM; docs/import.md). Datasets are
   * matched to `featureNames` (default 'f0', 'f1', ...) by name. Throws UrnforestError
   * 'CorruptModel' (not valid ONNX) or 'UnsupportedModel' (regressor, preprocessing, unknown op).
   */
  static fromONNX(bytes: Uint8Array, options?: { featureNames?: string[]; classNames?: string[]; target?: string }): Forest;
  /**
   * Imports XGBoost's own JSON model (Booster.save_model('model.json'), XGBoost 1.x), no converter
   * needed: a gbtree classifier with objective binary:logistic, binary:logitraw, multi:softprob or
   * multi:softmax. `model` is the file's bytes or its text. Predictions equal xgboost's (labels,
   * and predict_proba within float rounding); the forest is additive and halts with the exact
   * early exit (rule 'alpha1'). Columns are named by `featureNames`, else the names the file
   * stores, else 'f0', 'f1', ...; classes by `classNames`, else '0'..'K-1'. Throws UrnforestError
   * 'CorruptModel' (not JSON, or not an XGBoost model), 'UnsupportedModel' (another objective,
   * the dart or gblinear booster, categorical splits), 'LimitExceeded' (over the memory budget),
   * 'InvalidArgument' (names that do not fit). docs/import.md.
   */
  static fromXGBoost(model: Uint8Array | string, options?: { featureNames?: string[]; classNames?: string[]; target?: string }): Forest;
  /** The import record of a forest from fromONNX() or fromXGBoost(); null for forests trained here. */
  readonly imported: ImportedInfo | null;
  /**
   * Calibrates the forest for halting from the votes of all its trees on the rows of `dataset`
   * (labels not needed: unlabeled held-out rows, never the training rows). An imported voting
   * forest's priors are then fitted from those votes (stored and cached tables dropped); a forest
   * trained here keeps its out-of-bag priors and tables and stores the rows beside them, so that
   * rule 'auto' can certify (and rule 'lp' fits on them). Returns the core's report on the rows for
   * `alpha` (default 0.99); its warnings do not stop the calibration. UrnforestError
   * 'InvalidArgument' for additive (boosted) imported models and AdaBoost forests (their own
   * prediction is a weighted vote), 'TooFewCalibrationRows' for fewer than 5 rows.
   */
  calibrate(dataset: Dataset, options?: { alpha?: number }): CalibrationReport;
  /**
   * Class probabilities per row, the core's one meaning per model kind (docs/api.md,
   * "Probabilities"): the source library's (soft; default for imported models), the trees' vote
   * shares (hard; default for forests trained here), a boosted model's weighted vote shares; the
   * labels are their argmax.
   */
  predictProba(dataset: Dataset, options?: { vote?: Vote }): ProbabilityPrediction;
  /**
   * The forest as an ONNX file (TreeEnsembleClassifier; input "X" float [N, features], categorical
   * features as category indices): ONNX Runtime predicts urnforest's full vote on every row.
   */
  toONNX(): Uint8Array;
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
   * other columns. Every rule runs at any number of classes (beyond a rule's full table,
   * ruleInfo[i].fullTableMaxClasses, its table decides on demand). By default only the trees a
   * row needs are walked and the result says nothing of the full vote (fullClassIndex, fullVotes
   * and disagreement undefined): that is the speed halting promises. `compare: true` also computes the full vote of all `trees`
   * (a cost of about one full prediction) for the comparison fields. `table` says what the halting
   * table cost this call: built (the first call with these options), cached, or stored with the model.
   * `firstRow` (default 0): the index of the dataset's first row in a larger batch; in random order row r
   * draws the permutation of row firstRow + r, so a batch predicted in contiguous parts, each with its
   * first row's index, answers as the whole batch (docs/api.md, "firstRow").
   */
  predict(dataset: Dataset, options: HaltingOptions & { compare: true; vote?: Vote; firstRow?: number }): HaltedPrediction;
  predict(dataset: Dataset, options: HaltingOptions & { compare?: false; vote?: Vote; firstRow?: number }): HaltedOnlyPrediction;
  predict(dataset: Dataset, options: HaltingOptions & { compare?: boolean; vote?: Vote; firstRow?: number }): HaltedPrediction | HaltedOnlyPrediction;
  predict(dataset: Dataset, options: FixedOrderOptions): HaltedPrediction;
  /**
   * The halted prediction written into typed arrays the caller owns and reuses (`destination.out`; any
   * of classIndex, treesUsed, confidence, haltedEarly, each at least numRows long; longer arrays get
   * their first numRows entries): no array is allocated per call, for tight loops over small batches.
   * The result's arrays are `out`'s (views of the first numRows entries); no labels, no full vote.
   * Table rules in generation or random order; TypeError for 'margin', order 'fixed', compare: true,
   * and for two arrays that share memory (the same buffer, overlapping ranges).
   */
  predict<O extends HaltedOut>(dataset: Dataset, options: HaltingOptions & { compare?: false; vote?: Vote; firstRow?: number },
    destination: { out: O }): HaltedInto<O>;
  /**
   * Imported voting forests, after calibrate(): the calibrated margin rule on the soft prediction
   * (docs/import.md). `lambda` is the threshold chosen for `alpha` (Infinity: only the exact early
   * exit was certified on the calibration rows). `disagreement` is against the soft prediction.
   */
  predict(dataset: Dataset, options: MarginOptions): MarginPrediction;
  /**
   * Certified halting, the rule to use when asking for halting without naming one (docs/halting.md,
   * "Certified halting"): the stopping strategy with the fewest trees whose disagreement with the full
   * prediction is certified <= 1 - alpha with probability >= 1 - delta, from the calibration rows;
   * the exact exit when nothing that saves trees is certified. `certificate` says which and why.
   */
  predict(dataset: Dataset, options: AutoOptions): StoppedPrediction & { rule: 'auto'; certificate: Certificate };
  /** Halting asked for without naming a rule (an `alpha` or a `delta` alone) is rule 'auto'. */
  predict(dataset: Dataset, options: Omit<AutoOptions, 'rule'> & ({ alpha: number } | { delta: number })): StoppedPrediction & { rule: 'auto'; certificate: Certificate };
  /** Two classes: [KM26]'s minimean stopping strategy at expected disagreement 1 - alpha (not certified). */
  predict(dataset: Dataset, options: LpOptions): StoppedPrediction & { rule: 'lp' };
  /**
   * Two classes, after calibrate(): the minimean strategy stratified by a surrogate of the final vote
   * (docs/halting.md, "Beyond counts"), expected disagreement 1 - alpha over rows like the calibration rows.
   */
  predict(dataset: Dataset, options: StratifiedOptions): StoppedPrediction & { rule: 'stratified' };
  /** Every vote of row `row` (0-based index into `dataset`) in query order, with the stop point. */
  trace(dataset: Dataset, row: number, options: HaltingOptions): VoteTrace;
  /**
   * A new halting table of `options.rule` for this forest (prior from its out-of-bag votes), for
   * `options.trees` queried trees. The caller owns (and must dispose) it. `order`/`seed` are ignored.
   */
  haltingTable(options: HaltingOptions & BuildControl): HaltingTable;
  /**
   * Per tally the answer of this forest's `options.rule` table (as haltingTable() builds it) to
   * `question`, each tally read as HaltingTable.halts/confidence/leader read one: 'halts' → Uint8Array
   * (1 = halts), 'confidence' → Float64Array, 'leader' → Int32Array (-1: no strict leader).
   * `tallies`: Int32Array, rows × classes, row-major. The table comes from the forest's own cache
   * (bounded, least recently used out, freed with the forest; options that resolve to the same rule,
   * alpha and trees share one table), so a sweep over alphas keeps a bounded number of tables.
   * RangeError for another question, a tally of another length, or one summing over the trees.
   */
  tallyAnswers(question: 'halts', tallies: Int32Array, options: HaltingOptions & BuildControl): Uint8Array;
  tallyAnswers(question: 'confidence', tallies: Int32Array, options: HaltingOptions & BuildControl): Float64Array;
  tallyAnswers(question: 'leader', tallies: Int32Array, options: HaltingOptions & BuildControl): Int32Array;
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
   * (default numTrees). hyper and optimal beyond their full table fit a mixture ('mixture' or
   * 'tallyMixture') instead of a histogram.
   */
  prior(rule: RuleName, options?: { trees?: number }): PriorInfo;
  /**
   * The urn model's posterior over the final tallies of `options.trees` votes (default numTrees)
   * reachable from partial `tally` (numClasses counts), with the prior `options.rule` uses for this
   * forest ([SSM16] §2; at most 4 classes). Throws UrnforestError 'LimitExceeded' beyond 4 classes.
   */
  posterior(tally: ArrayLike<number>, options: PosteriorOptions): TallyPosterior;
  /**
   * Where rule 'lp' ([KM26]'s two-class minimean strategy at expected disagreement 1 − `alpha`,
   * default 0.99) stops: the strategy predict({rule: 'lp', alpha}) runs, read-only. Throws TypeError
   * or RangeError for other options or rules, and UrnforestError 'InvalidArgument' for more than two
   * classes, more than 1,001 trees, or a forest without out-of-bag rows (trained here) or calibration
   * rows (imported, before calibrate()).
   */
  stoppingRegion(options: { rule: 'lp'; alpha?: number }): StoppingRegion;
  /**
   * The query order predict(), trace() and expectedCost() use without an `order` option: the
   * core's default, 'random' for vote-boosting, else 'generation'.
   */
  readonly defaultOrder: 'generation' | 'random';
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
   * order() plus `on` and `warnings` (ordering unpruned trees on their own training data warns:
   * every tree is right on its in-bag rows; prune the trees with treePruning 'cv', or order on
   * 'oob' votes or held-out data).
   */
  orderReport(dataset: Dataset, options?: OrderOptions): OrderReport;
  /**
   * Static pruning: a NEW Forest of trees order[0..keep) in that order (the caller disposes it).
   * With `training` (the exact training set) a random forest's or bagging's OOB votes are recomputed.
   */
  prune(order: Int32Array | readonly number[], keep: number, options?: { training?: Dataset }): Forest;
  /** Error rate in [0, 1] of the first u trees of `order` on labelled `dataset`, u = 1..order.length (thesis Fig. 3.1). */
  errorCurve(dataset: Dataset, order: Int32Array | readonly number[]): Float64Array;
  /**
   * Importance of each feature (model order) on labelled `dataset`, normally the training data (the
   * model keeps no per-node counts): 'impurity' (default; mean decrease in Gini, sums to 1) or
   * 'permutation' (rise in each tree's error rate when the feature is permuted, on its out-of-bag
   * rows for a random forest's or bagging's exact training data; seeded).
   */
  featureImportance(dataset: Dataset, options?: { method?: 'impurity' | 'permutation'; seed?: number | bigint }): Float64Array;
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
  /** A summary (trees, classes, features, ensemble, nodes, oobError, imported) for JSON and logs. */
  toJSON(): ForestSummary;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}

/** Halting rules (see docs/api.md): 'alpha1' never changes the full vote's answer. */

/** How a full prediction counts the trees: the source library's summed scores, or majority votes. */
export type Vote = 'soft' | 'hard';

/** Forest.imported: where an imported forest came from and how it predicts. */
export interface ImportedInfo {
  /** 'voting': leaves hold class distributions (random forests); 'additive': margins (boosting). */
  kind: 'voting' | 'additive';
  /** The full prediction's default vote ('soft' for imported models). */
  vote: Vote;
  /** Producer of the ONNX file, e.g. 'skl2onnx 1.16.0' ('' when the file does not say); 'xgboost 1.7.4' for fromXGBoost. */
  source: string;
  /** True after calibrate(): the halting rules' priors are fitted from those votes. */
  calibrated: boolean;
  /** Rows calibrate() used (0 before). */
  calibrationRows: number;
}

/** Stable codes of calibrate()'s warnings (never renamed; new ones are appended). */
export type CalibrationWarningCode =
  /** More than half of the rows are copies of other rows. */
  | 'DuplicateRows'
  /** The tallies look like the model's training rows (almost no contested tally, or all unanimous). */
  | 'TrainingLikeRows'
  /** The rows cannot certify the alpha asked at delta 0.05, even with zero disagreement on them. */
  | 'TooFewRowsForAlpha';

/** Forest.calibrate's report on its rows (docs/import.md, "How many calibration rows"). */
export interface CalibrationReport {
  /** Rows given. */
  rows: number;
  /** Rows that differ in some value (NaN equals NaN). */
  distinctRows: number;
  /** The largest alpha these rows certify at delta 0.05 for a strategy with zero loss on them: 0.05^(1/rows). */
  maxCertifiableAlpha: number;
  /** Rows the alpha asked needs at delta 0.05 (0 for alpha 1: no number of rows suffices). */
  rowsNeeded: number;
  /** The alpha asked. */
  alpha: number;
  /** What looks wrong with the rows, each with a stable code and a message that counts it. */
  warnings: { code: CalibrationWarningCode; message: string }[];
}

/** Forest.predictProba's result. */
export interface ProbabilityPrediction {
  labels: string[];
  classIndex: Int32Array;
  /** rows x classes, row-major. */
  probabilities: Float64Array;
  classNames: string[];
  vote: Vote;
}

/** Forest.predict's options for the calibrated margin rule. */
export interface MarginOptions {
  rule: 'margin';
  /** Target agreement with the soft prediction, in (0, 1]; default 0.99. */
  alpha?: number;
  /** Compute the soft prediction too, for disagreement (default false). */
  compare?: boolean;
  vote?: 'soft';
}

/** Forest.predict's options for rule 'auto' (certified halting). */
export interface AutoOptions {
  rule: 'auto';
  /** Target agreement with the full prediction, in (0, 1]; default 0.99. */
  alpha?: number;
  /** Probability that the certificate is wrong, in (0, 1); default 0.05. */
  delta?: number;
  /** Query order: 'random' (default; the certificate holds for it) or 'generation' (exact exit). */
  order?: 'random' | 'generation';
  seed?: number | bigint;
  compare?: boolean;
  vote?: Vote;
  /** The index of the dataset's first row in a larger batch (as for the table rules); default 0. */
  firstRow?: number;
}

/**
 * Forest.predict's options for rule 'lp': [KM26]'s minimean strategy at expected disagreement 1 - alpha
 * (two classes; three or more over full tallies, UrnforestError 'LimitExceeded' past 5,000,000 tally states,
 * e.g. five or more classes at 101 trees).
 */
export type LpOptions = Omit<AutoOptions, 'rule' | 'delta'> & {
  rule: 'lp';
  /**
   * [KM26]'s objective: 'minimean' (default) bounds the expected disagreement over rows like the calibration
   * rows; 'minimax' bounds it for every final tally, whatever the row (two classes; more trees spent).
   */
  objective?: 'minimean' | 'minimax';
};

/**
 * Forest.predict's options for rule 'stratified' (two classes; a calibrated forest: calibrate() fits the
 * surrogate, which toBytes() keeps).
 */
export type StratifiedOptions = Omit<AutoOptions, 'rule' | 'delta'> & { rule: 'stratified' };

/** What rule 'auto' certified (the CLI's "certificate" object, camelCase). */
export interface Certificate {
  /** 'siba' or 'hyper' (a halting table at an internal alpha), 'lp', or 'exact' (the exact exit). */
  strategy: 'siba' | 'hyper' | 'lp' | 'exact';
  /** A table's internal alpha, the LP's target disagreement; 1 for 'exact'. */
  parameter: number;
  /** True when a strategy that saves trees was certified. */
  certified: boolean;
  /** Upper confidence bound on the strategy's disagreement on future rows (0 for 'exact'). */
  bound: number;
  alpha: number;
  delta: number;
  /** Calibration rows the priors and the LP were fitted on, and those the bound was computed on. */
  fitRows: number;
  certifyRows: number;
  /** Why nothing was certified; '' when certified. */
  reason: string;
  /**
   * How the bound was made: the p-value and the testing scheme (e.g. 'betting, one fixed sequence
   * of 52 candidates ordered on the fit rows, 31 tested'); '' when no test ran.
   */
  method: string;
  /** The calibration rows that would be needed, when too few were given; else null. */
  rowsNeeded: number | null;
}

/** Forest.predict's result with rules 'auto' and 'lp' (no probabilities). */
export type StoppedPrediction = Omit<HaltedPrediction, 'rule' | 'probabilities' | 'tallies' | 'fullClassIndex' |
  'fullVotes' | 'disagreement'> & {
  /** Absent when the exact exit on an imported model's soft vote answered. */
  tallies?: Int32Array;
  /** With `compare: true` only. */
  fullClassIndex?: Int32Array; fullVotes?: Uint32Array; disagreement?: number;
};

/** Forest.predict's result with the margin rule. */
export type MarginPrediction = Omit<HaltedPrediction, 'rule' | 'fullClassIndex' | 'fullVotes' | 'disagreement'> & {
  rule: 'margin'; lambda: number;
  /**
   * The model's own class probabilities of the rows (its soft prediction, docs/api.md): the
   * prediction `alpha` is the target agreement with, so a row's label differs from their argmax
   * where the rule stopped on a leader the remaining trees overturn. Computed by the core on first
   * read, with every tree (`dataset` must still be live then).
   */
  probabilities: Float64Array;
  /** With `compare: true` only. */
  fullClassIndex?: Int32Array; fullVotes?: Uint32Array; disagreement?: number;
};
