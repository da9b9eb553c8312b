// Compiled by `tsc --noEmit --strict` like types_check.ts: the API's additions (posterior,
// defaultOrder, stoppingRegion, haltsMany, emphasisWeights, emphasisGrid, RemoteForest#posterior, defaultKeep, learner.grownToPurity)
// type-check as documented.
import {
  init, Dataset, Forest, trainForest, type OrderReport, haltingTable, emphasisWeights, emphasisGrid, confusionMatrix, defaultKeep,
  ruleInfo, type RuleInfo, type RuleName, type Certificate, type StoppedPrediction,
  type ConfusionMatrix, type ForestSummary, type DatasetSummary, type UrnforestErrorCode,
  type ImportedInfo, type CalibrationReport, type CalibrationWarningCode, type ProbabilityPrediction, type Vote, type TallyPosterior, type PosteriorOptions, type StoppingRegion, type EmphasisWeights, type EmphasisWeightsOptions,
} from 'urnforest';
import { UrnforestWorker } from 'urnforest/worker';

const uf = await init();
const data = Dataset.fromCSV('a,class\n1,x\n2,y\n');
const forest = trainForest(data, { trees: 5 });
const order: 'generation' | 'random' = forest.defaultOrder;
const options: PosteriorOptions = { rule: 'siba', trees: 5 };
const posterior: TallyPosterior = forest.posterior([1, 0], options);
const tallies: Int32Array = posterior.tallies;
const probability: Float64Array = posterior.probability;
const win: Float64Array = posterior.win;
const leader: number = posterior.leader;
const region: StoppingRegion = forest.stoppingRegion({ rule: 'lp', alpha: 0.95 });
const stopProbability: Float64Array = region.stopProbability;
const stopAnswer: Uint8Array = region.answer;
const regionTrees: number = region.numTrees + region.expectedTrees + region.expectedDisagreement;
const remote = await new UrnforestWorker().load(forest.toBytes());
const remotePosterior: TallyPosterior = await remote.posterior(new Int32Array([1, 0]), { rule: 'hyper' });
const table = haltingTable({ rule: 'siba', trees: 5 });
const halts: Uint8Array = table.haltsMany([[1, 0], [3, 0]]);
const flat: Uint8Array = table.haltsMany(new Int32Array([1, 0]));
const weightOptions: EmphasisWeightsOptions = { a: 2, b: 2 };
const weights: EmphasisWeights = emphasisWeights(new Uint32Array([1, 2]), 2, weightOptions);
const grid: readonly number[] = emphasisGrid();
const viaApi: readonly number[] = uf.emphasisGrid();
console.log(order, tallies, probability, win, leader, remotePosterior, halts, flat, weights.share, weights.weights, grid, viaApi);
const imported: Forest = Forest.fromONNX(new Uint8Array(0), { featureNames: ['a', 'b'], target: 'y' });
const info: ImportedInfo | null = imported.imported;
imported.calibrate(Dataset.fromCSV('a,b\n1,2\n', { target: null }));
const calibration: CalibrationReport = imported.calibrate(Dataset.fromCSV('a,b\n1,2\n', { target: null }), { alpha: 0.999 });
const warningCodes: CalibrationWarningCode[] = calibration.warnings.map((w) => w.code);
const certifiable: number = calibration.maxCertifiableAlpha + calibration.distinctRows + calibration.rowsNeeded;
const tooFew: UrnforestErrorCode = 'TooFewCalibrationRows';
const proba: ProbabilityPrediction = imported.predictProba(Dataset.fromCSV('a,b\n1,2\n', { target: null }), { vote: 'soft' });
const vote: Vote = proba.vote;
const probabilities: Float64Array = proba.probabilities;
const softHalted = imported.predict(Dataset.fromCSV('a,b\n1,2\n', { target: null }), { rule: 'alpha1', vote: 'soft' });
const softVote: Vote | undefined = softHalted.vote;
console.log(info, vote, probabilities, softVote);
const fromXgbBytes: Forest = Forest.fromXGBoost(new Uint8Array(0), { featureNames: ['a'], classNames: ['x', 'y'], target: 'y' });
const fromXgbText: Forest = Forest.fromXGBoost('{}');
console.log(fromXgbBytes.imported, fromXgbText.numTrees);
// @ts-expect-error the model is bytes or the JSON text, not a parsed object
Forest.fromXGBoost({ learner: {} });
const report: OrderReport = forest.orderReport(data, { ordering: 'boosting', on: 'oob' });
const reportWarnings: string[] = report.warnings;
const reportOn: 'data' | 'oob' = report.on;
const oobOrder: Int32Array = forest.order(data, { on: 'oob' });
console.log(reportWarnings, reportOn, oobOrder);

// Caller-owned output arrays for halted predictions.
export function intoCheck(forest: Forest, data: Dataset): number {
  const out = { classIndex: new Int32Array(data.numRows), treesUsed: new Int32Array(data.numRows) };
  const r = forest.predict(data, { rule: 'hyper', alpha: 0.99 }, { out });
  const c: Int32Array = r.classIndex;
  const t: Int32Array = r.treesUsed;
  return c[0] + t[0] + r.meanTrees + r.rows;
}
{
  const fromRows: Dataset = Dataset.fromRows([{ sepal: 5.1, colour: 'red', species: 'setosa', note: null }], { target: 'species' });
  const fromMatrix: Dataset = Dataset.fromArrays([[1, 2], [3, 4]], { labels: ['a', 'b'] });
  const from64: Dataset = Dataset.fromArrays(new Float64Array(4), { rows: 2, cols: 2, labels: [0, 1], targetCategorical: true });
  const fromNumbers: Dataset = Dataset.fromRows([[1], [2]], { labels: [1.5, 2.5], featureNames: ['x'], schemaOf: forest });
  const csv: Dataset = Dataset.fromCSV('a;b\n1,5;x\n', { delimiter: 'auto', decimal: ',', targetCategorical: false });
  const full = forest.predict(data);
  const fullProbabilities: Float64Array = full.probabilities;
  const halted = forest.predict(data, { rule: 'siba' });
  const haltedProbabilities: Float64Array | undefined = halted.probabilities;
  const cm: ConfusionMatrix = confusionMatrix(data.labels(), full);
  const cm2: ConfusionMatrix = uf.confusionMatrix([0, 1], new Int32Array([0, 0]), 2);
  const recall: number = cm.perClass[0].accuracy;
  const forestSummary: ForestSummary = forest.toJSON();
  const dataSummary: DatasetSummary = data.toJSON();
  const code: UrnforestErrorCode = 'NumericTarget';
  console.log(fromRows, fromMatrix, from64, fromNumbers, csv, fullProbabilities, haltedProbabilities, cm, cm2, recall, forestSummary, dataSummary, code);
}
{
  const importance: Float64Array = forest.featureImportance(data, { method: 'permutation', seed: 3 });
  const impurity: Float64Array = forest.featureImportance(data);
  console.log(importance, impurity);
}
const controller = new AbortController();
const builtWithProgress = haltingTable({ rule: 'siba', trees: 31, classes: 3, onProgress: (done: number, total: number) => done < total, signal: controller.signal });
const forestTable = forest.haltingTable({ rule: 'hyper', onProgress: () => undefined, signal: controller.signal });
const fromBuffer: Dataset = Dataset.fromCSV(new TextEncoder().encode('a,b\n1,2\n').buffer, { target: null });
const trainedFromBytes = await new UrnforestWorker().train({ csv: new Uint8Array(0) }, { trees: 3 });
console.log(builtWithProgress, forestTable, fromBuffer, trainedFromBytes);
// JobControl.transfer: the call's buffers move to the worker instead of being copied.
const movedRows = new Float32Array([1, 2]);
const moved = await remote.predict({ x: movedRows, options: { rows: 1, cols: 2 } }, undefined, { transfer: true });
console.log(moved.classIndex);
// @ts-expect-error transfer is a boolean
await remote.predict({ x: movedRows, options: { rows: 1, cols: 2 } }, undefined, { transfer: 1 });
const keep: number = uf.defaultKeep(101) + defaultKeep(21);
const pure: boolean = forest.learner.grownToPurity;
console.log(keep, pure);
{
  const info: readonly RuleInfo[] = ruleInfo;
  const first: RuleName = info[0].name;
  const needsPrior: boolean = info[0].needsPrior;
  const viaApi: readonly RuleInfo[] = uf.ruleInfo;
  console.log(first, needsPrior, viaApi, info[0].description, info[0].fullTableMaxClasses);
}
{
  const auto = forest.predict(data, { rule: 'auto', alpha: 0.95, delta: 0.05, order: 'random', compare: true });
  const certificate: Certificate = auto.certificate;
  const rowsNeeded: number | null = certificate.rowsNeeded;
  const strategy: 'siba' | 'hyper' | 'lp' | 'exact' = certificate.strategy;
  const lp: StoppedPrediction = forest.predict(data, { rule: 'lp', alpha: 0.99, seed: 3 });
  const method: string = certificate.method;
  const stratified: StoppedPrediction & { rule: 'stratified' } = forest.predict(data, { rule: 'stratified', alpha: 0.99, seed: 3 });
  console.log(stratified.meanTrees);
  console.log(rowsNeeded, method, strategy, certificate.fitRows, certificate.certifyRows, auto.treesUsed, lp.meanTrees);
  const byDefault = forest.predict(data, { alpha: 0.99 });
  const byDefaultRule: 'auto' = byDefault.rule;
  const byDefaultCertificate: Certificate = byDefault.certificate;
  console.log(byDefaultRule, byDefaultCertificate.bound);
  // @ts-expect-error delta is rule 'auto''s
  forest.predict(data, { rule: 'lp', delta: 0.1 });
  const minimax: StoppedPrediction = forest.predict(data, { rule: 'lp', objective: 'minimax', alpha: 0.99 });
  console.log(minimax.meanTrees);
  // @ts-expect-error objective is 'minimean' or 'minimax'
  forest.predict(data, { rule: 'lp', objective: 'maximin' });
}
{
  // forest.predict on plain rows (PlainRows) and UrnforestWorker's wasm option.
  const full: number[] = Array.from(forest.predict([[1], [2]]).classIndex);
  const halted: number = forest.predict([{ a: 1 }], { rule: 'hyper', alpha: 0.99 }).meanTrees;
  const compared: number = forest.predict([[1]], { rule: 'siba', compare: true }).disagreement;
  const into: Int32Array = forest.predict([[1]], { rule: 'siba' }, { out: { treesUsed: new Int32Array(1) } }).treesUsed;
  // @ts-expect-error a row is an array or an object, not a number
  forest.predict([1, 2]);
  const withWasm = new UrnforestWorker({ wasm: uf.wasmUrl(), threads: 1 });
  withWasm.terminate();
  console.log(full, halted, compared, into);
}
{
  // predict's firstRow (a part of a larger batch), on the main thread and in a worker.
  const part: Int32Array = forest.predict(data, { rule: 'hyper', order: 'random', firstRow: 1000 }).treesUsed;
  const certified: number = forest.predict(data, { rule: 'auto', firstRow: 5 }).meanTrees;
  const split: Int32Array = (await remote.predict({ x: new Float32Array(2), options: { rows: 2, cols: 1 } }, { rule: 'hyper', firstRow: 0 })).treesUsed;
  // @ts-expect-error firstRow is a number
  forest.predict(data, { rule: 'hyper', firstRow: '1' });
  console.log(part, certified, split);
}
