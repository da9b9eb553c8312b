// Compiled by `tsc --noEmit --strict` like types_check.ts: the API's additions (posterior,
// defaultOrder, haltsMany, emphasisWeights, emphasisGrid, RemoteForest#posterior) type-check as documented.
import {
  init, Dataset, Forest, trainForest, haltingTable, emphasisWeights, emphasisGrid,
  type ImportedInfo, type ProbabilityPrediction, type Vote, type TallyPosterior, type PosteriorOptions, type EmphasisWeights, type EmphasisWeightsOptions,
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
const proba: ProbabilityPrediction = imported.predictProba(Dataset.fromCSV('a,b\n1,2\n', { target: null }), { vote: 'soft' });
const vote: Vote = proba.vote;
const probabilities: Float64Array = proba.probabilities;
const softHalted = imported.predict(Dataset.fromCSV('a,b\n1,2\n', { target: null }), { rule: 'alpha1', vote: 'soft' });
const softVote: Vote | undefined = softHalted.vote;
console.log(info, vote, probabilities, softVote);
const controller = new AbortController();
const builtWithProgress = haltingTable({ rule: 'siba', trees: 31, classes: 3, onProgress: (done: number, total: number) => done < total, signal: controller.signal });
const forestTable = forest.haltingTable({ rule: 'hyper', onProgress: () => undefined, signal: controller.signal });
const fromBuffer: Dataset = Dataset.fromCSV(new TextEncoder().encode('a,b\n1,2\n').buffer, { target: null });
const trainedFromBytes = await new UrnforestWorker().train({ csv: new Uint8Array(0) }, { trees: 3 });
console.log(builtWithProgress, forestTable, fromBuffer, trainedFromBytes);
