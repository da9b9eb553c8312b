// Compiled by tsc --noEmit --strict (predict_entry.test.mjs): the urnforest/predict entry's types.
import { init, wasmUrl, importWasmUrl, Forest, UrnforestError, type PredictApi, type HaltedPrediction,
  type Prediction, type ProbabilityPrediction } from 'urnforest/predict';

const api: PredictApi = await init();
const withImports: PredictApi = await api.init({ imports: true, wasm: importWasmUrl() });
const urls: URL[] = [wasmUrl(), withImports.wasmUrl()];
const forest: Forest = Forest.fromBytes(new Uint8Array(8));
const xgb: Forest = Forest.fromXGBoost('{}', { classNames: ['a', 'b'] });
const onnx: Forest = api.Forest.fromONNX(new Uint8Array(8), { featureNames: ['x'], target: 'y' });
const full: Prediction = forest.predict([[1, 2, null]]);
const halted: HaltedPrediction = forest.predict([{ x: 1, colour: 'red', flag: true }], { rule: 'siba', alpha: 0.99, compare: true });
const flat: Prediction = forest.predict(new Float32Array(8));
const proba: ProbabilityPrediction = xgb.predictProba(new Float64Array(4), { vote: 'soft' });
const trees: number = halted.treesUsed[0] + halted.meanTrees + (halted.probabilities?.[0] ?? 0);
const stored: { rule: string; alpha: number; trees: number }[] = onnx.storedTables();
const code: string = new UrnforestError().code;
console.log(urls, full, flat, proba, trees, stored, code, onnx.imported?.calibrationRows, forest.featureTypes[0] === 'numeric');
forest.dispose();
// @ts-expect-error predict needs rows
forest.predict();
// @ts-expect-error imports is a boolean
await init({ imports: 'yes' });
// @ts-expect-error no training in this entry
api.trainForest;
