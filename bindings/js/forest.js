// Forest: a trained ensemble of classification trees held in wasm memory, with its predictions
// (full vote, weighted vote, halted vote [SSM16]), traces, halting tables, priors, expected costs
// and static pruning by ordered aggregation [Sot11].
import { UrnforestError, callChecked } from './errors.js';
import { haltedAnswer, haltedAnswerFixed, haltedAnswerInto, outArrays, readHaltedAnswer } from './halted_answer.js';
import {
  BUILD_OPTIONS, HaltingTable, NO_EXTRA_OPTIONS, TableCache, buildForestTable, haltingOptions, ruleOption,
} from './halting.js';
import { INTERNAL, addressOf, adopt, adoptExtra, current, disposed, live, release, withNewHandle } from './handles.js';
import { Dataset } from './dataset.js';
import { learnerFromWasm } from './learner.js';
import { currentModule, requireModule } from './module.js';
import { nameOption, namesOf, optionTables } from './options.js';
import {
  countsArg, describe, intOption, isPlainObject, optionsObject, rejectUnknown, seedHalves, stringArray, treeIds,
} from './validate.js';

/**
 * The ordered-aggregation heuristics (static pruning), in the core's order: the public constant
 * (usable before init()); the names accepted are the core's (OrderingNames,
 * tests/js/core_api.test.mjs checks that they agree).
 */
export const orderings = Object.freeze(['early', 'reduce-error', 'complementarity', 'margin-distance',
  'orientation', 'boosting', 'kappa', 'greedy-sdp']);

const PREDICT_EXTRA_OPTIONS = ['compare', 'vote'];
// At most this many alphas are remembered per rule (#rememberOptions): a caller sweeping alpha
// must not grow the map without bound.
const VALIDATED_OPTIONS_PER_RULE = 16;
const EXPECTED_COST_EXTRA_OPTIONS = ['samples'];

/** A trained ensemble of classification trees, held in wasm memory. */
export class Forest {
  // Halting tables built by predict/trace/expectedCost, freed with the forest.
  #tables = new TableCache();
  // What never changes for a model, asked from wasm once: class names, tree count, whether it has
  // tree weights, and the query order predict/trace use without an explicit `order`.
  #classNames;
  #frozenNames; // a frozen copy, for results written into caller-owned arrays
  #numTrees;
  #weighted;
  #defaultOrder;
  // The import record ({kind, vote, source, calibrated, calibrationRows}) or null, asked once and
  // again after calibrate().
  #imported;
  // trainForest's emphasis selection (voteboost.a = 'cv'), frozen; undefined otherwise.
  #emphasisSelection;
  // predict()'s validated halting options of calls with options {rule, alpha}: rule -> alpha -> h
  // (frozen), so that the README's call, repeated, validates nothing again (#knownOptions).
  #validatedOptions = new Map();

  constructor(token, handle, emphasisSelection) {
    if (token !== INTERNAL) throw new TypeError('use trainForest() or Forest.fromBytes()');
    adopt(this, handle, 'Forest');
    adoptExtra(this, this.#tables);
    if (emphasisSelection !== undefined) this.#emphasisSelection = Object.freeze({ ...emphasisSelection });
  }

  /** Loads a model written by toBytes() (or the native CLI's `train --out`). */
  static fromBytes(bytes) {
    const m = requireModule();
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`Forest.fromBytes: bytes must be a Uint8Array, got ${describe(bytes)}`);
    return new Forest(INTERNAL, withNewHandle(m._ForestHandle, (h) => h._load(bytes)));
  }

  /**
   * The forest trainForest grows, from the bytes (toBytes) of its parts (trainForestPart) given in
   * tree order; the same bytes as training it whole. Errors: 'InvalidArgument' naming the part that
   * does not fit (out of order, overlapping, another run), 'CorruptModel' for bytes that are not a model.
   */
  static mergeParts(parts) {
    const m = requireModule();
    if (!Array.isArray(parts) || parts.length === 0 || !parts.every((p) => p instanceof Uint8Array)) {
      throw new TypeError(`Forest.mergeParts: parts must be a non-empty array of Uint8Array, got ${describe(parts)}`);
    }
    return new Forest(INTERNAL, withNewHandle(m._ForestHandle, (h) => h._mergeParts(parts)));
  }

  /**
   * Imports a tree-ensemble classifier exported to ONNX (`TreeEnsembleClassifier`, ai.onnx.ml
   * opsets 1 and 3: scikit-learn and Spark MLlib forests, XGBoost and LightGBM boosters; see
   * docs/import.md). `options.featureNames` names the model's input columns in order (ONNX keeps
   * none; default 'f0', 'f1', ...): datasets are matched to them by name. `options.classNames`
   * renames the classes in the order of the model's labels. `options.target` names the
   * target column (default 'class'). Errors: `CorruptModel` (not valid ONNX), `UnsupportedModel`
   * (a regressor, preprocessing nodes, an unknown op; the message names the node).
   */
  static fromONNX(bytes, options) {
    const m = requireModule();
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`Forest.fromONNX: bytes must be a Uint8Array, got ${describe(bytes)}`);
    const o = optionsObject(options, 'Forest.fromONNX');
    rejectUnknown(o, ['featureNames', 'classNames', 'target'], 'Forest.fromONNX');
    const featureNames = stringArray(o.featureNames, "Forest.fromONNX: option 'featureNames'");
    const classNames = stringArray(o.classNames, "Forest.fromONNX: option 'classNames'");
    if (o.target !== undefined && typeof o.target !== 'string') {
      throw new TypeError(`Forest.fromONNX: option 'target' must be a string, got ${describe(o.target)}`);
    }
    return new Forest(INTERNAL, withNewHandle(m._ForestHandle, (h) => h._loadOnnx(bytes, featureNames, classNames, o.target ?? '')));
  }

  /**
   * For a forest imported with fromONNX(): {kind: 'voting' | 'additive', vote: 'soft' | 'hard' (the
   * full prediction's default), source (producer of the ONNX file), calibrated, calibrationRows};
   * null for a forest trained here.
   */
  get imported() {
    const handle = live(this, 'Forest');
    if (this.#imported === undefined) this.#imported = handle._imported();
    return this.#imported === null ? null : { ...this.#imported };
  }

  /**
   * Calibrates an imported voting forest for halting: the votes of all its trees on the rows of
   * `dataset` (unlabeled rows are fine, e.g. a validation sample; labels are never read) become
   * the data every rule's prior is fitted from, as out-of-bag votes are for forests trained here.
   * Replaces any earlier calibration and drops stored and cached halting tables. toBytes() keeps it.
   * Errors: `InvalidArgument` for a forest trained here or an additive model (its exact early exit,
   * rule 'alpha1', needs no calibration), `ColumnMismatch` when a model column is missing.
   */
  calibrate(dataset) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`calibrate: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    callChecked(() => handle._calibrate(data));
    this.#tables.delete();
    this.#imported = undefined;
  }

  /**
   * Class probabilities of every row: {labels, classIndex, probabilities: Float64Array (rows x
   * classes, row-major), classNames, vote}. `options.vote`: 'soft' (an imported model's own
   * prediction: for scikit-learn and XGBoost models their predict_proba, as ONNX Runtime computes
   * it; the default for imported models) or 'hard' (each class's share of the trees' votes; the
   * default for forests trained here, whose leaves hold one class).
   */
  predictProba(dataset, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`predictProba: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    const o = optionsObject(options, 'predictProba');
    rejectUnknown(o, ['vote'], 'predictProba');
    const vote = this.#voteOption(handle, o.vote, 'predictProba');
    const out = callChecked(() => handle._predictScores(data, vote === 'soft'));
    const names = this.#names(handle);
    const labels = Array.from(out.classIndex, (c) => names[c]);
    return { labels, classIndex: out.classIndex, probabilities: out.scores, classNames: names.slice(), vote };
  }

  /**
   * Full-ensemble vote for every row of `dataset` (same feature columns as the training data).
   * Returns {labels: string[], classIndex: Int32Array, votes: Uint32Array (rows x classes, row-major),
   * classNames: string[]}. Ties go to the lowest class index. A boosted model predicts with its
   * weighted vote (classIndex; plus scores: Float64Array rows x classes); votes stay unweighted.
   * probabilities: Float64Array rows x classes, row-major, each row summing to 1: votes / T (a
   * boosted model: its weighted vote shares; an imported soft model: its own probabilities). A
   * halted result's probabilities are, per row, the posterior mean of the final vote shares given
   * the votes drawn (docs/halting.md).
   * With options: halted prediction (HaltingOptions; order 'fixed' + fixedOrder queries given trees).
   */
  predict(dataset, options, destination) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`predict: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    if (destination !== undefined) {
      if (options === undefined) throw new TypeError('predict: caller-owned arrays ({out}) need halting options (a rule)');
      return this.#predictHaltedInto(handle, dataset, data, options, destination);
    }
    if (options !== undefined) return this.#predictHalted(handle, dataset, data, options);
    const imported = this.#importRecord(handle);
    // An imported model's own prediction is its soft vote; `votes` stay the trees' hard votes
    // (counted in the same walk; empty for additive models).
    const out = imported !== null && imported.vote === 'soft'
      ? callChecked(() => handle._predictScores(data, true))
      : callChecked(() => handle._predict(data));
    this.#useWeightedVote(handle, data, out);
    const names = this.#names(handle);
    const n = out.classIndex.length;
    const labels = new Array(n);
    for (let i = 0; i < n; i++) labels[i] = names[out.classIndex[i]];
    const probabilities = fullProbabilities(out, n, names.length, imported);
    return { labels, classIndex: out.classIndex, votes: out.votes, classNames: names.slice(), ...(out.scores && imported === null && { scores: out.scores }), probabilities };
  }

  /**
   * Every vote of one row in query order and where the halting rule stopped (for plots and
   * animations). `row` is an index into `dataset`; options as predict().
   */
  trace(dataset, row, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`trace: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    if (typeof row !== 'number' || !Number.isInteger(row)) throw new TypeError(`trace: row must be an integer, got ${describe(row)}`);
    const rows = data._numRows();
    if (row < 0 || row >= rows) throw new RangeError(`trace: row must be in [0, ${rows}), got ${row}`);
    const h = haltingOptions(options, 'trace', handle._numTrees(), NO_EXTRA_OPTIONS, this.#orderByDefault(handle));
    const table = this.#tables.table(handle, h);
    const out = callChecked(() => handle._trace(data, row, table, h.order, h.seedHi, h.seedLo));
    const classNames = handle._classNames();
    return {
      trees: out.trees,
      votes: out.votes,
      confidence: out.confidence,
      treesUsed: out.treesUsed,
      haltedEarly: out.haltedEarly,
      classIndex: out.classIndex,
      label: classNames[out.classIndex],
      fullClassIndex: out.fullClassIndex,
      leaders: out.leaders,
      fullVotes: out.fullVotes,
      classNames,
      rule: h.rule,
      alpha: h.alpha,
    };
  }

  /**
   * A new HaltingTable of `options.rule` for this forest (prior from its out-of-bag votes), for
   * `options.trees` queried trees (default all). The caller owns (and disposes) it.
   * `options.onProgress(done, total)` and `options.signal` (an AbortSignal) watch and cancel the
   * build of a full table (halting.js controlledBuild).
   */
  haltingTable(options) {
    const handle = live(this, 'Forest');
    const h = haltingOptions(options, 'haltingTable', handle._numTrees(), BUILD_OPTIONS);
    return new HaltingTable(INTERNAL, buildForestTable(handle, h, this));
  }

  /**
   * Builds the halting table of `options.rule` at `options.alpha` (default 0.99) for
   * `options.trees` queried trees (default all) and stores it with the model: toBytes() then
   * includes it, and haltingTable()/predict()/trace() use it when rule, alpha and trees match
   * exactly. Replaces a stored table with the same rule, alpha and trees.
   */
  storeTable(options) {
    const handle = live(this, 'Forest');
    if (isPlainObject(options)) rejectUnknown(options, ['rule', 'alpha', 'trees'], 'storeTable');
    const h = haltingOptions(options, 'storeTable', handle._numTrees());
    const table = this.#tables.table(handle, h);
    callChecked(() => handle._storeTable(table));
  }

  /** The halting tables stored with the model: [{rule, alpha, trees}], in storage order. */
  storedTables() { return callChecked(() => live(this, 'Forest')._storedTables()); }

  /**
   * Expected trees queried and disagreement with the full vote of `options.rule`, averaged over the
   * out-of-bag data prior (for <= 4 classes the OOB tallies deconvolved from their ~0.37 T-vote binomial
   * noise; beyond, Monte Carlo over the rows' rescaled OOB tallies): exact when feasible, plus Monte Carlo with `samples` draws (default 10000; 0 = none; seed = options.seed).
   */
  expectedCost(options) {
    const handle = live(this, 'Forest');
    const h = haltingOptions(options, 'expectedCost', handle._numTrees(), EXPECTED_COST_EXTRA_OPTIONS);
    const samples = intOption(h.extra.samples, 'samples', 0, 1e8, optionTables().defaults.costSamples);
    const table = this.#tables.table(handle, h);
    return callChecked(() => handle._expectedCost(table, samples, h.seedHi, h.seedLo));
  }

  /**
   * The prior `rule` uses, estimated from the out-of-bag votes, for `options.trees` queried trees
   * (default all): {kind, classes, trees, components: [{weight, beta}], finalTallyMass}.
   */
  prior(rule, options) {
    const handle = live(this, 'Forest');
    const r = ruleOption(rule, 'prior: rule');
    const o = optionsObject(options, 'prior');
    rejectUnknown(o, ['trees'], 'prior');
    const trees = intOption(o.trees, 'trees', 1, handle._numTrees(), handle._numTrees());
    return callChecked(() => handle._prior(r, trees));
  }

  /**
   * The ensemble kind and its learner as stored in the model: {ensemble, maxDepth, minLeaf,
   * treePruning: 'none' | 'cv', treeFolds, treeSe, voteboost?: {a, b, base}} (voteboost only when
   * ensemble is 'voteboost'; b resolved, i.e. a for the symmetric emphasis).
   */
  get learner() {
    return learnerFromWasm(live(this, 'Forest')._learnerOptions());
  }

  /**
   * The query order predict(), trace() and expectedCost() use when no `order` is given: the core's
   * DefaultQueryOrder, 'random' for vote-boosting (its trees are sequentially dependent, and the
   * finite-T rules hold for them only in a uniformly random order, docs/voteboost.md), else
   * 'generation'.
   */
  get defaultOrder() {
    return this.#orderByDefault(live(this, 'Forest'));
  }

  /**
   * The urn model's posterior over the final tallies of `options.trees` votes (default all trees)
   * reachable from partial `tally` (numClasses counts summing to at most trees), with the prior
   * `options.rule` uses for this forest ([SSM16] §2; the core's FinalTallyPosterior, <= 4
   * classes): {numClasses, numTrees, tallies: Int32Array (n x numClasses, row-major, in
   * lexicographic order), probability: Float64Array (n, summing to 1), win: Float64Array
   * (numClasses: P(class c is the strict winner of the final tally | tally), summing to 1 minus the
   * mass of tied final tallies), leader: the strict leader of `tally` (-1 on a tie; win[leader] is
   * the rule's P*)}.
   */
  posterior(tally, options) {
    const handle = live(this, 'Forest');
    if (!isPlainObject(options)) throw new TypeError(`posterior: options must be an object with a 'rule', got ${describe(options)}`);
    rejectUnknown(options, ['rule', 'trees'], 'posterior');
    if (options.rule === undefined) throw new TypeError(`posterior: option 'rule' is required (one of ${namesOf('rules').join(', ')})`);
    const rule = ruleOption(options.rule, 'rule');
    const numTrees = handle._numTrees();
    const trees = intOption(options.trees, 'trees', 1, numTrees, numTrees);
    const t = countsArg(tally, 'tally', handle._numClasses(), trees);
    return callChecked(() => handle._posterior(rule, trees, t));
  }

  /**
   * With trainForest's voteboost.a = 'cv': {chosen, grid: Float64Array, cvError: Float64Array
   * (percent misclassified per grid value)}; otherwise undefined (also after fromBytes).
   */
  get emphasisSelection() {
    live(this, 'Forest');
    return this.#emphasisSelection;
  }

  /**
   * Vote weight of every tree (AdaBoost's alpha_t), a Float64Array copy; empty for unweighted
   * ensembles (random forest, bagging).
   */
  treeWeights() { return live(this, 'Forest')._treeWeights(); }

  /**
   * Ordered aggregation: the order of all trees (Int32Array, a permutation of 0..numTrees-1) by
   * `options.ordering` (one of `orderings`; default 'boosting') evaluated on labelled `dataset`
   * (normally the training data). Options: on 'data' (default: every tree's vote on `dataset`) or
   * 'oob' (each tree scored on the training rows its bootstrap left out; `dataset` must be the
   * exact training set of a random forest or bagging model; orderings 'early' and 'boosting'),
   * backfit 0..100 (reduce-error only; 0), mdmP in (0, 1) (margin-distance only; 0.075).
   * orderReport() gives the same order with the warnings that apply (docs/pruning.md).
   */
  order(dataset, options) {
    const handle = live(this, 'Forest');
    const data = live(orderDataset(dataset, 'order'), 'Dataset');
    return callChecked(() => handle._order(data, orderSpec(options, 'order')));
  }

  /**
   * order() with what it was evaluated on and its warnings: { order: Int32Array, on: 'data' |
   * 'oob', warnings: string[] }. Today's warning: ordering trees grown to purity (no 'cv' tree
   * pruning, no depth or leaf limit) on their own training data, where every tree is right on its
   * in-bag rows, so the ordering has little to choose from; the papers order bagged CART pruned by
   * cost-complexity (treePruning 'cv'), and out-of-bag votes or held-out data are the honest
   * alternatives.
   */
  orderReport(dataset, options) {
    const handle = live(this, 'Forest');
    const data = live(orderDataset(dataset, 'orderReport'), 'Dataset');
    const spec = orderSpec(options, 'orderReport');
    const order = callChecked(() => handle._order(data, spec));
    const warnings = callChecked(() => handle._orderingWarnings(data, spec));
    return { order, on: spec.on ?? 'data', warnings };
  }

  /**
   * Static pruning: a new Forest made of trees order[0..keep) of this one, in that order (the
   * caller owns and disposes it). `order`: distinct tree ids (usually from order()); keep
   * 1..order.length. Option training: the exact training Dataset, to recompute the out-of-bag votes
   * of a random forest or bagging model (without it they are all 0 and prior-based rules cannot
   * run on the pruned model).
   */
  prune(order, keep, options) {
    const handle = live(this, 'Forest');
    const ids = treeIds(order, 'order', handle._numTrees());
    if (keep === undefined) throw new TypeError('prune: keep is required');
    const k = intOption(keep, 'keep', 1, ids.length, 1);
    const o = optionsObject(options, 'prune');
    rejectUnknown(o, ['training'], 'prune');
    let training = null;
    if (o.training !== undefined) {
      if (!(o.training instanceof Dataset)) throw new TypeError(`training must be a Dataset, got ${describe(o.training)}`);
      training = live(o.training, 'Dataset');
    }
    const fresh = withNewHandle(requireModule()._ForestHandle, (h) => h._loadPruned(handle, ids, k, training));
    return new Forest(INTERNAL, fresh);
  }

  /**
   * Error-versus-size curve ([Sot11] Fig. 3.1): entry u - 1 is the error rate in [0, 1] on labelled
   * `dataset` of the first u trees of `order` (distinct tree ids), combined as the ensemble combines
   * (weighted for AdaBoost). A Float64Array of order.length entries.
   */
  errorCurve(dataset, order) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`errorCurve: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    const ids = treeIds(order, 'order', handle._numTrees());
    return callChecked(() => handle._errorCurve(data, ids));
  }

  /**
   * Importance of each feature (model order, a Float64Array of numFeatures) measured on labelled
   * `dataset` (normally the training data: the model keeps no per-node counts). options.method:
   * 'impurity' (default; mean decrease in Gini impurity, summing to 1) or 'permutation' (the rise
   * in each tree's error rate when the feature is permuted, averaged over trees; seeded by
   * options.seed, default 1). On the exact training data of a random forest or bagging, each
   * tree's bootstrap is replayed: impurity on its in-bag rows, permutation on its out-of-bag rows;
   * on other data every tree reads every row (held-out importance).
   */
  featureImportance(dataset, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`featureImportance: dataset must be a Dataset (labelled rows, normally the training data), got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    const o = optionsObject(options, 'featureImportance');
    rejectUnknown(o, ['method', 'seed'], 'featureImportance');
    const method = o.method ?? 'impurity';
    if (method !== 'impurity' && method !== 'permutation') {
      throw new RangeError(`featureImportance: method must be 'impurity' or 'permutation', got ${describe(method)}`);
    }
    const [hi, lo] = seedHalves(o.seed);
    return callChecked(() => handle._featureImportance(data, method, hi, lo));
  }

  /** Class index of every training row, aligned with oobVotes() (a copy). */
  trainLabels() { return live(this, 'Forest')._trainLabels(); }

  /**
   * The forest as an ONNX file (ai.onnx.ml TreeEnsembleClassifier; input "X" float [N, features]
   * with categorical features as category indices, outputs "label" and "probabilities"): ONNX
   * Runtime predicts urnforest's full vote on every row (docs/import.md). Imported forests are
   * written back as imported. UnsupportedModel for a two-class majority vote of more than 4,186 trees.
   */
  toONNX() {
    const handle = live(this, 'Forest');
    return callChecked(() => handle._toOnnx());
  }

  /** The versioned binary model (a copy). Same data, options and seed give identical bytes. */
  toBytes() { return callChecked(() => live(this, 'Forest')._bytes()); }
  /** Number of trees T. */
  get numTrees() { return live(this, 'Forest')._numTrees(); }
  /** Number of classes. */
  get numClasses() { return live(this, 'Forest')._numClasses(); }
  /** Number of feature columns the model reads. */
  get numFeatures() { return live(this, 'Forest')._numFeatures(); }
  /** Total nodes over all trees. */
  get numNodes() { return live(this, 'Forest')._numNodes(); }
  /** Out-of-bag error of the training data in [0, 1]. */
  get oobError() { return live(this, 'Forest')._oobError(); }
  /** Out-of-bag vote counts, training rows x classes, row-major (a copy). */
  oobVotes() { return live(this, 'Forest')._oobVotes(); }
  /** Class index -> class name. */
  get classNames() { return live(this, 'Forest')._classNames(); }
  /** Feature column names the model reads, in model order. */
  get featureNames() { return live(this, 'Forest')._featureNames(); }
  /** 'numeric' or 'categorical' per feature. */
  get featureTypes() { return live(this, 'Forest')._featureTypes(); }
  /** True once dispose() has been called. */
  get disposed() { return disposed(this, 'Forest'); }

  /**
   * A plain summary for JSON.stringify and logs: {type: 'Forest', trees, classes, features:
   * [{name, type}], ensemble, nodes, oobError (null when unknown, e.g. imported), imported (null,
   * or {kind, vote, source, calibrated})}; {type: 'Forest', disposed: true} once disposed.
   */
  toJSON() {
    if (disposed(this, 'Forest')) return { type: 'Forest', disposed: true };
    const types = this.featureTypes;
    const imported = this.imported;
    const oob = this.oobError;
    return {
      type: 'Forest',
      trees: this.numTrees,
      classes: this.classNames,
      features: this.featureNames.map((name, i) => ({ name, type: types[i] })),
      ensemble: this.learner.ensemble,
      nodes: this.numNodes,
      oobError: imported === null && Number.isFinite(oob) ? oob : null,
      imported: imported === null ? null
        : { kind: imported.kind, vote: imported.vote, source: imported.source, calibrated: imported.calibrated },
    };
  }

  /** What console.log and util.inspect print: the toJSON() summary. */
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    const summary = this.toJSON();
    delete summary.type;
    if (summary.features) summary.features = summary.features.map((f) => `${f.name} (${f.type})`);
    if (typeof inspect !== 'function') return `Forest ${JSON.stringify(summary)}`;
    return depth < 0 ? '[Forest]' : `Forest ${inspect(summary, options)}`;
  }

  /** Frees the wasm memory (with every cached halting table). Idempotent; any later use throws. */
  dispose() {
    if (disposed(this, 'Forest')) return;
    release(this, 'Forest'); // first: it throws while a call uses the forest, before anything is freed
    if (current(this)) this.#tables.delete();
    else this.#tables.forget();
  }

  // A halted result's probabilities from its `tallies`, computed by the core when first read
  // (HaltedVoteShares under the prior of the predict's table, built again if dropped since).
  #sharesOf(h, tallies) {
    const handle = live(this, 'Forest');
    const table = this.#tables.table(handle, h);
    return callChecked(() => table._meanShares(handle, tallies));
  }

  // Class names (each call gets a copy of what this returns).
  #names(handle) {
    return this.#classNames ?? (this.#classNames = handle._classNames());
  }

  // The query order of predict/trace/expectedCost without an explicit `order`: the core's
  // DefaultQueryOrder for this forest.
  #orderByDefault(handle) {
    return this.#defaultOrder ?? (this.#defaultOrder = handle._defaultOrder());
  }

  #predictHalted(handle, dataset, data, options) {
    let h = this.#knownOptions(options);
    let fixed = null;
    if (h === undefined) {
      if (isPlainObject(options) && options.rule === 'margin') return this.#predictMargin(handle, data, options);
      const numTrees = this.#numTrees ?? (this.#numTrees = handle._numTrees());
      fixed = fixedOrderOption(options, numTrees);
      h = fixed === null
        ? haltingOptions(options, 'predict', numTrees, PREDICT_EXTRA_OPTIONS, this.#orderByDefault(handle))
        : haltingOptions(fixed.rest, 'predict', fixed.ids.length, PREDICT_EXTRA_OPTIONS);
      if (fixed === null) this.#rememberOptions(options, h);
    }
    const compare = h.extra.compare ?? false;
    if (typeof compare !== 'boolean') throw new TypeError(`predict: option 'compare' must be a boolean, got ${describe(compare)}`);
    const vote = this.#voteOption(handle, h.extra.vote, 'predict');
    const imported = this.#importRecord(handle);
    if (imported !== null && vote === 'soft') {
      if (h.rule === 'alpha1' && fixed === null) return this.#predictSoftExact(handle, data, h, compare);
      if (imported.kind === 'additive') {
        throw new UrnforestError('InvalidArgument', `predict: an additive model (boosted trees) halts with rule 'alpha1' (the exact early exit) only, not '${h.rule}'`);
      }
    }
    const table = this.#tables.entry(handle, h);
    const m = currentModule(); // not null: live() above found this forest's instance current
    // A fixed order always reports the full vote of its trees (as it always has).
    const answer = fixed === null
      ? haltedAnswer(m, addressOf(this), addressOf(dataset), table.address, h, compare)
      : haltedAnswerFixed(m, addressOf(this), addressOf(dataset), table.address, h, fixed.ids);
    const result = readHaltedAnswer(m, answer, this.#names(handle), h,
      imported === null || vote !== 'soft' ? (tallies) => this.#sharesOf(h, tallies) : () => undefined);
    result.table = this.#tables.lastUse;
    if (imported !== null && vote === 'soft' && compare) {
      // The reference is the model's own (soft) prediction, not the trees' majority.
      const soft = callChecked(() => handle._predictScores(data, true)).classIndex;
      let differ = 0;
      for (let i = 0; i < soft.length; i++) differ += soft[i] !== result.classIndex[i] ? 1 : 0;
      result.fullClassIndex = soft;
      result.disagreement = soft.length === 0 ? 0 : differ / soft.length;
    }
    if (imported === null) return result;
    result.vote = vote;
    return result;
  }

  // predict()'s validated halting options for `options` when it is {rule, alpha} (alpha optional:
  // the README's call) and the same rule and alpha were validated before on this forest; else
  // undefined (validate them in full). Only own enumerable keys are read, as rejectUnknown does.
  #knownOptions(options) {
    if (!isPlainObject(options)) return undefined;
    for (const key in options) if (key !== 'rule' && key !== 'alpha') return undefined;
    return this.#validatedOptions.get(options.rule)?.get(options.alpha);
  }

  // Keeps `h`, validated from `options`, for #knownOptions when `options` is {rule, alpha}.
  #rememberOptions(options, h) {
    for (const key in options) if (key !== 'rule' && key !== 'alpha') return;
    let byAlpha = this.#validatedOptions.get(options.rule);
    if (byAlpha === undefined) this.#validatedOptions.set(options.rule, byAlpha = new Map());
    if (byAlpha.size < VALIDATED_OPTIONS_PER_RULE) byAlpha.set(options.alpha, Object.freeze(h));
  }

  // A halted prediction written into the caller's typed arrays (destination.out): no array is
  // allocated per call. Table rules in generation or random order, without the full vote.
  #predictHaltedInto(handle, dataset, data, options, destination) {
    let h = this.#knownOptions(options);
    if (h === undefined) {
      const numTrees = this.#numTrees ?? (this.#numTrees = handle._numTrees());
      if (isPlainObject(options) && (options.rule === 'margin' || options.order === 'fixed')) {
        throw new TypeError(`predict: caller-owned arrays work with table rules in generation or random order, not ${options.rule === 'margin' ? "rule 'margin'" : "order 'fixed'"}`);
      }
      h = haltingOptions(options, 'predict', numTrees, PREDICT_EXTRA_OPTIONS, this.#orderByDefault(handle));
      this.#rememberOptions(options, h);
    }
    if (h.extra.compare === true) throw new TypeError('predict: caller-owned arrays ({out}) hold the halted answer only; compare: true allocates the full vote');
    if (h.extra.compare !== undefined && h.extra.compare !== false) throw new TypeError(`predict: option 'compare' must be a boolean, got ${describe(h.extra.compare)}`);
    const imported = this.#importRecord(handle);
    if (imported !== null && this.#voteOption(handle, h.extra.vote, 'predict') === 'soft' && (h.rule === 'alpha1' || imported.kind === 'additive')) {
      throw new TypeError("predict: caller-owned arrays work with the trees' votes; pass vote: 'hard' or leave out {out}");
    }
    const m = currentModule();
    const rows = data._numRows();
    const out = outArrays(destination, rows, m);
    const table = this.#tables.entry(handle, h);
    const meanTrees = haltedAnswerInto(m, addressOf(this), addressOf(dataset), table.address, h, out);
    return { classIndex: out.classIndex, treesUsed: out.treesUsed, confidence: out.confidence, haltedEarly: out.haltedEarly,
      meanTrees, rows, trees: h.trees, classNames: this.#frozenNames ?? (this.#frozenNames = Object.freeze(this.#names(handle).slice())), rule: h.rule, alpha: h.alpha, table: this.#tables.lastUse };
  }

  // The calibrated margin rule on an imported voting model's soft prediction (docs/import.md).
  #predictMargin(handle, data, options) {
    rejectUnknown(options, ['rule', 'alpha', 'compare', 'vote'], 'predict');
    const alpha = options.alpha ?? 0.99;
    if (typeof alpha !== 'number' || !(alpha > 0 && alpha <= 1)) {
      throw new RangeError(`predict: option 'alpha' must be a number in (0, 1], got ${describe(alpha)}`);
    }
    if (options.vote !== undefined && options.vote !== 'soft') {
      throw new TypeError(`predict: rule 'margin' halts the soft prediction; option 'vote' must be 'soft', got ${describe(options.vote)}`);
    }
    const compare = options.compare ?? false;
    if (typeof compare !== 'boolean') throw new TypeError(`predict: option 'compare' must be a boolean, got ${describe(compare)}`);
    const numTrees = this.#numTrees ?? (this.#numTrees = handle._numTrees());
    const h = { rule: 'margin', alpha, trees: numTrees };
    return this.#predictSoftExact(handle, data, h, compare, callChecked(() => handle._predictSoftMargin(data, alpha)));
  }

  // The exact early exit on an imported model's soft prediction (the answer always equals it), or
  // the margin rule's answer `given`.
  #predictSoftExact(handle, data, h, compare, given) {
    const out = given ?? callChecked(() => handle._predictSoftExact(data));
    const names = this.#names(handle);
    const n = out.classIndex.length;
    const numTrees = this.#numTrees ?? (this.#numTrees = handle._numTrees());
    const haltedEarly = new Uint8Array(n);
    for (let i = 0; i < n; i++) haltedEarly[i] = out.treesUsed[i] < numTrees ? 1 : 0;
    // The exact exit's answer is the soft prediction itself; the margin rule's is compared with it.
    const full = !compare ? undefined
      : given === undefined ? out.classIndex.slice() : callChecked(() => handle._predictScores(data, true)).classIndex;
    let differ = 0;
    if (compare) for (let i = 0; i < n; i++) differ += full[i] !== out.classIndex[i] ? 1 : 0;
    return {
      labels: Array.from(out.classIndex, (c) => names[c]),
      classIndex: out.classIndex,
      treesUsed: out.treesUsed,
      confidence: new Float64Array(n).fill(given === undefined ? 1 : h.alpha),
      haltedEarly,
      fullClassIndex: compare ? full : undefined,
      fullVotes: compare
        ? (this.#importRecord(handle).kind === 'additive' ? new Uint32Array(0) : callChecked(() => handle._predict(data)).votes)
        : undefined,
      disagreement: compare ? differ / Math.max(n, 1) : undefined,
      meanTrees: out.meanTrees,
      ...(given !== undefined && { lambda: given.lambda }),
      trees: h.trees,
      classNames: names.slice(),
      rule: h.rule,
      alpha: h.alpha,
      vote: 'soft',
    };
  }

  #importRecord(handle) {
    if (this.#imported === undefined) this.#imported = handle._imported();
    return this.#imported;
  }

  // 'soft' or 'hard': the option's value, or the model's default (soft for imported models).
  #voteOption(handle, value, what) {
    if (value === undefined) return this.#importRecord(handle)?.vote ?? 'hard';
    if (value !== 'soft' && value !== 'hard') throw new TypeError(`${what}: option 'vote' must be 'soft' or 'hard', got ${describe(value)}`);
    return value;
  }

  // A boosted model's own prediction is its weighted vote (as the CLI's `predict` without --rule):
  // replaces out.classIndex and adds out.scores. `votes` stay the unweighted counts.
  #useWeightedVote(handle, data, out) {
    if (!(this.#weighted ?? (this.#weighted = handle._treeWeights().length > 0))) return;
    const weighted = callChecked(() => handle._predictWeighted(data));
    out.classIndex = weighted.classIndex;
    out.scores = weighted.scores;
  }
}

// predict()'s full-vote probabilities (rows x classes, row-major): an imported model's soft scores
// (its own predict_proba), a boosted model's weighted vote shares, else each class's share of the
// trees' votes (votes / T).
function fullProbabilities(out, n, k, imported) {
  if (imported !== null && imported.vote === 'soft') return out.scores;
  const p = new Float64Array(n * k);
  const weights = imported === null && out.scores ? out.scores : out.votes;
  for (let r = 0; r < n; r++) {
    let total = 0;
    for (let c = 0; c < k; c++) total += weights[r * k + c];
    if (total > 0) for (let c = 0; c < k; c++) p[r * k + c] = weights[r * k + c] / total;
  }
  return p;
}

// predict's {order: 'fixed', fixedOrder}: null for other orders, else the ids and the remaining
// halting options (trees defaults to, and must equal, fixedOrder.length).
function fixedOrderOption(options, numTrees) {
  if (!isPlainObject(options)) return null;
  if (options.order !== 'fixed') {
    if (options.fixedOrder !== undefined) throw new TypeError("fixedOrder needs order: 'fixed'");
    return null;
  }
  if (options.fixedOrder === undefined) throw new TypeError("order 'fixed' needs fixedOrder (an Int32Array of tree ids)");
  const ids = treeIds(options.fixedOrder, 'fixedOrder', numTrees);
  if (options.trees !== undefined && options.trees !== ids.length) {
    throw new RangeError(`trees (${options.trees}) must equal fixedOrder.length (${ids.length})`);
  }
  if (options.seed !== undefined) throw new TypeError("seed applies to order 'random', not 'fixed'");
  const { order, fixedOrder, ...rest } = options;
  return { ids, rest };
}

function orderDataset(dataset, what) {
  if (!(dataset instanceof Dataset)) throw new TypeError(`${what}: dataset must be a Dataset, got ${describe(dataset)}`);
  return dataset;
}

// The core's ordering spec from order()'s options (names checked here, values by the core).
function orderSpec(options, what) {
  const o = optionsObject(options, what);
  rejectUnknown(o, ['ordering', 'on', 'backfit', 'mdmP'], what);
  const spec = {};
  if (o.ordering !== undefined) spec.ordering = nameOption(o.ordering, namesOf('orderings'), 'ordering');
  if (o.on !== undefined) spec.on = nameOption(o.on, ['data', 'oob'], 'on');
  if (o.backfit !== undefined) spec.backfit = intOption(o.backfit, 'backfit', 0, 100);
  if (o.mdmP !== undefined) {
    if (typeof o.mdmP !== 'number') throw new TypeError(`mdmP must be a number, got ${describe(o.mdmP)}`);
    if (!(o.mdmP > 0 && o.mdmP < 1)) throw new RangeError(`mdmP must be in (0, 1), got ${o.mdmP}`);
    spec.mdmP = o.mdmP;
  }
  return spec;
}
