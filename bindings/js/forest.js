// Forest: a trained ensemble of classification trees held in wasm memory, with its predictions
// (requests parsed and answered by the core: predict_request.js, halted_answer.js), traces, halting
// tables, priors, expected costs and static pruning (pruning.js). Method docs: 04_forest.d.ts.
import { callChecked } from './errors.js';
import { answerInto, answerOf, outArrays, readAnswer } from './halted_answer.js';
import {
  BUILD_OPTIONS, HaltingTable, NO_EXTRA_OPTIONS, TableCache, buildForestTable, calibrationAlpha, haltingOptions, ruleOption,
} from './halting.js';
import { INTERNAL, addressOf, adopt, adoptExtra, current, disposed, live, release, withNewHandle } from './handles.js';
import { Dataset } from './dataset.js';
import { learnerFromWasm } from './learner.js';
import { currentModule, requireModule } from './module.js';
import { namesOf, optionTables } from './options.js';
import { predictRows } from './plain_rows.js';
import { RequestCache, certificateOf, newRequest, probaSpec, requireInPlace } from './predict_request.js';
import { errorCurveOf, orderOf, orderReportOf, prunedHandle } from './pruning.js';
import { stoppingRegionOf } from './stopping_region.js';
import { tallyAnswers } from './tally_answers.js';
import {
  countsArg, describe, intOption, isPlainObject, optionsObject, rejectUnknown, seedHalves, stringArray,
} from './validate.js';
export { orderings } from './pruning.js';

const EXPECTED_COST_EXTRA_OPTIONS = ['samples'];
const FULL_SPEC = Object.freeze({ probabilities: true });

/** A trained ensemble of classification trees, held in wasm memory (bindings/types/04_forest.d.ts). */
export class Forest {
  // Halting tables built by predict/trace/expectedCost, freed with the forest.
  #tables = new TableCache();
  // predict()'s requests parsed by the core, kept per options (predict_request.js RequestCache).
  #requests = new RequestCache();
  // What never changes for a model, asked from wasm once: class names and tree count.
  #classNames;
  #frozenNames; // a frozen copy, for results written into caller-owned arrays
  #numTrees;
  // The query order trace/expectedCost use without an explicit `order` (the core's DefaultQueryOrder).
  #defaultOrder;
  // The import record ({kind, vote, source, calibrated, calibrationRows}) or null, asked once and
  // again after calibrate().
  #imported;
  // trainForest's emphasis selection (voteboost.a = 'cv'), frozen; undefined otherwise.
  #emphasisSelection;

  constructor(token, handle, emphasisSelection) {
    if (token !== INTERNAL) throw new TypeError('use trainForest() or Forest.fromBytes()');
    adopt(this, handle, 'Forest');
    adoptExtra(this, this.#tables);
    adoptExtra(this, this.#requests);
    if (emphasisSelection !== undefined) this.#emphasisSelection = Object.freeze({ ...emphasisSelection });
  }

  /** Loads a model written by toBytes() (or the native CLI's `train --out`). */
  static fromBytes(bytes) {
    const m = requireModule();
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`Forest.fromBytes: bytes must be a Uint8Array, got ${describe(bytes)}`);
    return new Forest(INTERNAL, withNewHandle(m._ForestHandle, (h) => h._load(bytes)));
  }

  /** trainForest's forest from the bytes of its parts, in tree order (04_forest.d.ts). */
  static mergeParts(parts) {
    const m = requireModule();
    if (!Array.isArray(parts) || parts.length === 0 || !parts.every((p) => p instanceof Uint8Array)) {
      throw new TypeError(`Forest.mergeParts: parts must be a non-empty array of Uint8Array, got ${describe(parts)}`);
    }
    return new Forest(INTERNAL, withNewHandle(m._ForestHandle, (h) => h._mergeParts(parts)));
  }

  /** Imports an ONNX TreeEnsembleClassifier, opsets 1, 3 and 5 (04_forest.d.ts, docs/import.md). */
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

  /** The import record of a forest from fromONNX(); null for forests trained here (04_forest.d.ts). */
  get imported() {
    const handle = live(this, 'Forest');
    if (this.#imported === undefined) this.#imported = handle._imported();
    return this.#imported === null ? null : { ...this.#imported };
  }

  /** Calibrates the forest for halting (imported or trained here); the core's report on the rows (04_forest.d.ts). */
  calibrate(dataset, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`calibrate: dataset must be a Dataset, got ${describe(dataset)}`);
    const report = callChecked(() => handle._calibrate(live(dataset, 'Dataset'), calibrationAlpha(options)));
    this.#tables.delete();
    this.#requests.delete(); // parsed for the model before its calibration
    this.#imported = undefined;
    return report;
  }

  /** See 04_forest.d.ts: the core's probabilities of the model's own prediction. */
  predictProba(dataset, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`predictProba: dataset must be a Dataset, got ${describe(dataset)}`);
    live(dataset, 'Dataset');
    const o = optionsObject(options, 'predictProba');
    rejectUnknown(o, ['vote'], 'predictProba');
    const spec = probaSpec(o.vote);
    const request = this.#requests.fixed(handle, `proba:${spec.vote}`, spec, 'predictProba');
    const { labels, classIndex, probabilities, classNames } = this.#answer(handle, dataset, request);
    return { labels, classIndex, probabilities, classNames, vote: request.info.vote };
  }

  /** See 04_forest.d.ts: the full prediction, or with options the halted one (the core picks the path). */
  predict(dataset, options, destination) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) return predictRows(this, dataset, options, destination); // plain_rows.js
    live(dataset, 'Dataset');
    if (destination !== undefined && options === undefined) throw new TypeError('predict: caller-owned arrays ({out}) need halting options (a rule)');
    const request = options === undefined
      ? this.#requests.fixed(handle, 'full', FULL_SPEC, 'predict')
      : this.#requests.request(handle, options, this.#numTrees ?? (this.#numTrees = handle._numTrees()));
    try {
      if (destination !== undefined) return this.#answerInto(handle, dataset, request, destination);
      const result = this.#answer(handle, dataset, request);
      if (request.info.table !== null) result.table = this.#tables.lastUse;
      if (options !== undefined && this.#importRecord(handle) !== null) result.vote = request.info.vote;
      if (request.info.path === 'auto') result.certificate = certificateOf(request);
      return result;
    } finally {
      if (request.owned) request.handle.delete();
    }
  }

  /** Every vote of one row in query order and where the rule stopped (04_forest.d.ts). */
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

  /** A new HaltingTable of `options.rule` for this forest, owned by the caller (04_forest.d.ts). */
  haltingTable(options) {
    const handle = live(this, 'Forest');
    const h = haltingOptions(options, 'haltingTable', handle._numTrees(), BUILD_OPTIONS);
    return new HaltingTable(INTERNAL, buildForestTable(handle, h, this));
  }

  /** Per tally the answer of the `options` table to `question`, from this forest's table cache (04_forest.d.ts). */
  tallyAnswers(question, tallies, options) {
    const handle = live(this, 'Forest');
    const h = haltingOptions(options, 'tallyAnswers', handle._numTrees(), BUILD_OPTIONS);
    return tallyAnswers(() => this.#tables.table(handle, h, this), question, tallies, 'tallyAnswers');
  }

  /** Builds a halting table and stores it with the model (04_forest.d.ts). */
  storeTable(options) {
    const handle = live(this, 'Forest');
    if (isPlainObject(options)) rejectUnknown(options, ['rule', 'alpha', 'trees'], 'storeTable');
    const h = haltingOptions(options, 'storeTable', handle._numTrees());
    const table = this.#tables.table(handle, h);
    callChecked(() => handle._storeTable(table));
  }

  /** The halting tables stored with the model: [{rule, alpha, trees}], in storage order. */
  storedTables() { return callChecked(() => live(this, 'Forest')._storedTables()); }

  /** Expected trees queried and disagreement of `options.rule` over the OOB data prior (04_forest.d.ts). */
  expectedCost(options) {
    const handle = live(this, 'Forest');
    const h = haltingOptions(options, 'expectedCost', handle._numTrees(), EXPECTED_COST_EXTRA_OPTIONS);
    const samples = intOption(h.extra.samples, 'samples', ...optionTables().limits.costSamples, optionTables().defaults.costSamples);
    const table = this.#tables.table(handle, h);
    return callChecked(() => handle._expectedCost(table, samples, h.seedHi, h.seedLo));
  }

  /** The prior `rule` uses, estimated from the out-of-bag votes (04_forest.d.ts). */
  prior(rule, options) {
    const handle = live(this, 'Forest');
    const r = ruleOption(rule, 'prior: rule');
    const o = optionsObject(options, 'prior');
    rejectUnknown(o, ['trees'], 'prior');
    const trees = intOption(o.trees, 'trees', 1, handle._numTrees(), handle._numTrees());
    return callChecked(() => handle._prior(r, trees));
  }

  /** The ensemble kind and its learner as stored in the model (04_forest.d.ts). */
  get learner() {
    return learnerFromWasm(live(this, 'Forest')._learnerOptions());
  }

  /** The query order predict(), trace() and expectedCost() use when no `order` is given (04_forest.d.ts). */
  get defaultOrder() {
    return this.#orderByDefault(live(this, 'Forest'));
  }

  /** The urn model's posterior over the final tallies reachable from `tally` (04_forest.d.ts). */
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

  /** With trainForest's voteboost.a = 'cv': the emphasis selection, else undefined (04_forest.d.ts). */
  get emphasisSelection() {
    live(this, 'Forest');
    return this.#emphasisSelection;
  }

  /** Vote weight of every tree (AdaBoost's alpha_t; empty when unweighted), a copy (04_forest.d.ts). */
  treeWeights() { return live(this, 'Forest')._treeWeights(); }
  /** See 04_forest.d.ts (pruning.js): order and orderReport. */
  order(dataset, options) { return orderOf(live(this, 'Forest'), dataset, options); }
  orderReport(dataset, options) { return orderReportOf(live(this, 'Forest'), dataset, options); }
  /** Rule 'lp''s stopping region, read-only (04_forest.d.ts, stopping_region.js). */
  stoppingRegion(options) { return stoppingRegionOf(live(this, 'Forest'), options); }
  /** See 04_forest.d.ts (pruning.js): prune (a new Forest the caller owns) and errorCurve. */
  prune(order, keep, options) { return new Forest(INTERNAL, prunedHandle(live(this, 'Forest'), order, keep, options)); }
  errorCurve(dataset, order) { return errorCurveOf(live(this, 'Forest'), dataset, order); }

  /** Importance of each feature measured on labelled `dataset` (04_forest.d.ts). */
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

  /** The forest as an ONNX file that ONNX Runtime predicts as urnforest does (04_forest.d.ts). */
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

  /** A plain summary for JSON.stringify and logs (04_forest.d.ts). */
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
    if (current(this)) {
      this.#tables.delete();
      this.#requests.delete();
    } else {
      this.#tables.forget();
      this.#requests.forget();
    }
  }

  // The core's answer to `request` on `dataset` as predict()'s or predictProba()'s result; a table
  // rule's table comes from this forest's TableCache.
  #answer(handle, dataset, request) {
    const { info } = request;
    const table = info.table === null ? null : this.#tables.entry(handle, info.table);
    const m = currentModule(); // not null: live() above found this forest's instance current
    const answer = answerOf(m, addressOf(this), addressOf(dataset), request.address, table === null ? 0 : table.address);
    if (info.path === 'exact' || info.path === 'margin') {
      return readAnswer(m, answer, this.#names(handle), info, () => this.#softProbabilities(dataset, request.spec));
    }
    return readAnswer(m, answer, this.#names(handle), info,
      request.probabilitiesOf ?? (request.probabilitiesOf = (tallies) => this.#sharesOf(info.table, tallies)));
  }

  // A soft rule's probabilities: the core's answer to the same request with probabilities (Predict
  // computes them: the model's own soft probabilities), for `dataset`, still live.
  #softProbabilities(dataset, spec) {
    const handle = live(this, 'Forest');
    live(dataset, 'Dataset');
    const request = newRequest(handle, { ...spec, probabilities: true }, 'predict');
    try {
      return this.#answer(handle, dataset, request).probabilities;
    } finally {
      request.handle.delete();
    }
  }

  // The in-place answer of `request` written into the caller's arrays (destination.out).
  #answerInto(handle, dataset, request, destination) {
    requireInPlace(request);
    const m = currentModule();
    const rows = live(dataset, 'Dataset')._numRows();
    const out = outArrays(destination, rows, m);
    const { info } = request;
    const table = this.#tables.entry(handle, info.table);
    const meanTrees = answerInto(m, addressOf(this), addressOf(dataset), request.address, table.address, out);
    return { classIndex: out.classIndex, treesUsed: out.treesUsed, confidence: out.confidence, haltedEarly: out.haltedEarly,
      meanTrees, rows, trees: info.trees, classNames: this.#frozenNames ?? (this.#frozenNames = Object.freeze(this.#names(handle).slice())),
      rule: info.rule, alpha: info.alpha, table: this.#tables.lastUse };
  }

  // A table rule's probabilities from its `tallies`, computed by the core when first read
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

  // The query order of trace/expectedCost without an explicit `order`: the core's DefaultQueryOrder.
  #orderByDefault(handle) {
    return this.#defaultOrder ?? (this.#defaultOrder = handle._defaultOrder());
  }

  #importRecord(handle) {
    if (this.#imported === undefined) this.#imported = handle._imported();
    return this.#imported;
  }
}
