// Compiled by `tsc --noEmit --strict` in `npm test`: keeps bindings/index.d.ts honest.
// Imports the package by name (self-reference through package.json "exports", types first).
import {
  init, Dataset, Forest, HaltingTable, UrnforestError, trainForest, haltingTable, pstar, rules,
  type Prediction, type TrainOptions, type HaltingOptions, type HaltedPrediction, type VoteTrace,
  type HaltedOnlyPrediction,
  type CostEstimate, type PriorInfo, type RuleName, type PStarResult,
  type StoreTableOptions, type StoredTableInfo,
  orderings, runExperiment, generators, type OrderingName, type FixedOrderOptions, type ExperimentOptions,
  type ExperimentReport, type VoteBoostOptions, type LearnerInfo, type EmphasisSelection,
} from 'urnforest';
import { UrnforestWorker, trainInWorker, type TrainResult, type TableResult, type WorkerProgress } from 'urnforest/worker';

async function main(): Promise<void> {
  const uf = await init();
  const data: Dataset = uf.Dataset.fromCSV('a,b,class\n1,2,x\n3,4,y\n', { target: 'class', classOrder: 'firstSeen' });
  const arrays = Dataset.fromArrays(new Float32Array(4), {
    rows: 2, cols: 2, labels: new Int32Array([0, 1]), featureNames: ['a', 'b'], classNames: ['x', 'y'],
  });
  const named = Dataset.fromArrays(new Float32Array(2), { rows: 1, cols: 2, labels: ['x'] });
  const opts: TrainOptions = {
    ensemble: 'bagging', trees: 11, mtry: 0, mtryRule: 'log2', maxDepth: 0, minLeaf: 1, seed: 7n,
    onProgress: (done: number, total: number) => done < total,
  };
  const forest: Forest = trainForest(data, opts);
  const out: Prediction = forest.predict(arrays);
  const labels: string[] = out.labels;
  const idx: Int32Array = out.classIndex;
  const votes: Uint32Array = out.votes;
  const bytes: Uint8Array = forest.toBytes();
  const again = uf.Forest.fromBytes(bytes);
  const n: number = again.numTrees + again.numClasses + again.numFeatures + again.numNodes + again.oobError;
  const names: string[] = again.classNames.concat(again.featureNames, data.featureNames, data.classNames);
  const rows: number = data.numRows + data.numFeatures;
  const y: Int32Array = data.labels();
  const x: Float32Array = data.toRowMajor();
  const csv = Dataset.fromCSV('a,b\n1,2\n', { target: null, schemaOf: forest });
  const part: Dataset = data.subset(new Uint32Array([0, 0]));
  part.dispose();
  const stats = uf.memoryStats();
  void [labels, idx, votes, n, names, rows, y, x, stats.heapBytes + stats.inUse, data.hasLabels, data.targetName];
  try {
    Forest.fromBytes(new Uint8Array(3));
  } catch (e) {
    if (e instanceof UrnforestError) {
      const code: string = e.code;
      const where: number = e.line + e.column;
      void [code, where];
    }
  }
  for (const d of [csv, again, forest, named, arrays, data]) d.dispose();
  const disposed: boolean = data.disposed;
  void disposed;
  // @ts-expect-error unknown ensemble kinds are rejected by the types
  trainForest(data, { ensemble: 'boosting' });
  // @ts-expect-error the constructor is private: use the factories
  new Dataset();
}

async function halting(forest: Forest, data: Dataset): Promise<void> {
  const names: readonly RuleName[] = rules;
  const opts: HaltingOptions = { rule: names[2], alpha: 0.95, order: 'random', seed: 3n, trees: 51 };
  const out: HaltedPrediction = forest.predict(data, { ...opts, compare: true });
  const used: Int32Array = out.treesUsed;
  const conf: Float64Array = out.confidence;
  const early: Uint8Array = out.haltedEarly;
  const full: Int32Array = out.fullClassIndex;
  const stats: number = out.disagreement + out.meanTrees + out.alpha + out.trees;
  const rule: RuleName = out.rule;
  const plain: Prediction = forest.predict(data);
  const only: HaltedOnlyPrediction = forest.predict(data, { rule: 'hyper', compare: false });
  const onlyUsed: number = only.meanTrees + only.treesUsed.length;
  const onlyFull: undefined = only.fullClassIndex;
  const fast: HaltedOnlyPrediction = forest.predict(data, { rule: 'hyper', alpha: 0.99 });
  const tableCost: number | undefined = fast.table?.ms;
  const tableSource: 'built' | 'stored' | 'cached' | undefined = fast.table?.source;
  const trace: VoteTrace = forest.trace(data, 0, { rule: 'siba' });
  const traceParts: [Int32Array, Int32Array, Float64Array, number, boolean, number, string, number, Uint32Array] = [
    trace.trees, trace.votes, trace.confidence, trace.treesUsed, trace.haltedEarly, trace.classIndex, trace.label,
    trace.fullClassIndex, trace.fullVotes,
  ];
  const table: HaltingTable = forest.haltingTable({ rule: 'hyper' });
  const storeOpts: StoreTableOptions = { rule: 'siba', alpha: 0.95, trees: 11 };
  forest.storeTable(storeOpts);
  const stored: StoredTableInfo[] = forest.storedTables();
  const storedRule: RuleName = stored[0].rule;
  void [stored[0].alpha + stored[0].trees, storedRule];
  const decide: boolean = table.halts([3, 0]) && table.halts(new Int32Array([3, 0]));
  const num: number = table.confidence([3, 0]) + table.leader([1, 2]) + table.minLeaderVotes(0, [1]) + table.numTrees + table.numClasses;
  const thresholds: Int32Array = table.binaryThresholds(0);
  const cost: CostEstimate = table.expectedCost({ final: [90, 11], samples: 100 });
  const stop: Float64Array | null = cost.stopProbability;
  const again = HaltingTable.fromBytes(table.toBytes());
  const cost2: CostEstimate = forest.expectedCost({ rule: 'siba', samples: 0 });
  const prior: PriorInfo = forest.prior('ndir', { trees: 21 });
  const mass: Float64Array | null = prior.finalTallyMass;
  const beta: Float64Array | undefined = prior.components[0]?.beta;
  const top = haltingTable({ rule: 'siba', trees: 101, classes: 2, alpha: 0.99 });
  const p: PStarResult = pstar({ rule: 'infinite', trees: 101, votes: [6, 0] });
  const labels: Int32Array = forest.trainLabels();
  void [used, conf, early, full, stats, rule, plain, traceParts, decide, num, thresholds, stop, cost2.monteCarloTrees,
    mass, beta, p.pstar, p.halt, labels, table.layout, table.monotone, table.disposed, onlyUsed, onlyFull];
  for (const t of [again, top, table]) t.dispose();
  // @ts-expect-error halting options need a rule (an alpha or a delta alone is rule 'auto')
  forest.predict(data, { order: 'random' });
  // @ts-expect-error unknown rule names are rejected by the types
  forest.predict(data, { rule: 'siba2' });

  const worker = new UrnforestWorker();
  const controller = new AbortController();
  const trained: TrainResult = await worker.train({ csv: 'a,class\n1,x\n' }, { trees: 5, seed: 1 }, {
    signal: controller.signal, onProgress: (e: WorkerProgress) => { void [e.stage, e.fraction]; },
  });
  const model: Forest = Forest.fromBytes(trained.bytes);
  const built: TableResult = await worker.haltingTable({ model: trained.bytes, options: { rule: 'hyper' } });
  const bt: [Int32Array, Int32Array] | null = built.binaryThresholds;
  const wcost: CostEstimate = await worker.expectedCost({ model: trained.bytes, options: { rule: 'ndir', samples: 10 } });
  await worker.haltingTable({ options: { rule: 'siba', trees: 21, classes: 3 } });
  await trainInWorker({ x: new Float32Array(2), options: { rows: 2, cols: 1, labels: ['a', 'b'] } });
  // @ts-expect-error onProgress belongs to the control argument in a worker
  await worker.train({ csv: '' }, { onProgress: () => true });
  worker.terminate();
  model.dispose();
  void [bt, wcost];
}

async function pruning(data: Dataset): Promise<void> {
  const boosted: Forest = trainForest(data, { ensemble: 'adaboost', boosting: 'reweight', trees: 11, maxDepth: 2 });
  const weights: Float64Array = boosted.treeWeights();
  const scores: Float64Array | undefined = boosted.predict(data).scores;
  const names: readonly OrderingName[] = orderings;
  const order: Int32Array = boosted.order(data, { ordering: 'kappa', backfit: 0, mdmP: 0.1 });
  const small: Forest = boosted.prune(order, 3, { training: data });
  const curve: Float64Array = boosted.errorCurve(data, order);
  const fixed: FixedOrderOptions = { rule: 'siba', alpha: 0.99, order: 'fixed', fixedOrder: order.slice(0, 3) };
  const halted: HaltedPrediction = boosted.predict(data, fixed);
  boosted.predict(data, { rule: 'siba', order: 'fixed', fixedOrder: [0, 1] });
  // @ts-expect-error a fixed order needs its tree ids
  boosted.predict(data, { rule: 'siba', order: 'fixed' });
  // @ts-expect-error unknown ordering names are rejected by the types
  boosted.order(data, { ordering: 'best' });
  const options: ExperimentOptions = {
    data, name: 'x', folds: 2, repeats: 1, trees: 21, alpha: [0.99, 0.9], rules: ['siba'], prune: 'boosting', keep: 5,
    queryOrder: 'random', ensemble: 'adaboost', boosting: 'resample', seed: 3n, stratified: true,
  };
  const report: ExperimentReport = runExperiment(options, { onProgress: (done: number, total: number) => done < total });
  const synthetic = runExperiment({ data: 'twonorm', train: 50, test: 50 });
  const prunedSize: number | undefined = report.pruned?.size;
  const err: number | null = report.full.error.mean;
  const gens: string[] = generators();
  // @ts-expect-error unknown generators are rejected by the types
  runExperiment({ data: 'spiral' });
  const worker = new UrnforestWorker();
  const remote: ExperimentReport = await worker.experiment({ data: { csv: 'a,class\n1,x\n' }, folds: 2 }, {
    onProgress: (e: WorkerProgress) => { void e.fraction; },
  });
  await worker.experiment({ data: 'circle', train: 20, test: 10, repeats: 1 });
  worker.terminate();
  void [weights, scores, names, curve, halted, synthetic, prunedSize, err, gens, remote, report.rules, report.query_order];
  small.dispose();
  boosted.dispose();
}

void main;
void halting;
void pruning;

function voteboost(data: Dataset): void {
  const vb: VoteBoostOptions = { a: 'cv', base: 'pruned', cvTrees: 11 };
  const forest: Forest = trainForest(data, { ensemble: 'voteboost', voteboost: vb, trees: 11 });
  const learner: LearnerInfo = forest.learner;
  const a: number | undefined = learner.voteboost?.a;
  const selection: EmphasisSelection | undefined = forest.emphasisSelection;
  const chosen: number | undefined = selection?.chosen;
  const ada: Forest = trainForest(data, { ensemble: 'adaboost', adaboost: { base: 'depth:4' }, treeFolds: 5, treeSe: 0 });
  trainForest(data, { treePruning: 'cv' });
  // @ts-expect-error unknown vote-boosting bases are rejected by the types
  trainForest(data, { ensemble: 'voteboost', voteboost: { base: 'forest' } });
  // @ts-expect-error emphasis is a number or 'cv'
  trainForest(data, { ensemble: 'voteboost', voteboost: { a: '2' } });
  const options: ExperimentOptions = { data: 'twonorm', ensemble: 'voteboost', voteboost: { a: 5 }, noise: 0.2, maxDepth: 3 };
  void [a, chosen, options];
  ada.dispose();
  forest.dispose();
}

void voteboost;
