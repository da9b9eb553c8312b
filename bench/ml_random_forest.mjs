// ml-random-forest peer for bench/run.mjs, in its own process (its JS heap would otherwise slow the
// garbage collection of the later wasm timings). Prints {"train_ms": x}.
//   node bench/ml_random_forest.mjs TRAIN.csv TREES MTRY SEED
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { RandomForestClassifier } from 'ml-random-forest';

const [csv, trees, mtry, seed] = process.argv.slice(2);
const lines = readFileSync(csv, 'utf8').trim().split('\n').slice(1);
const X = lines.map((l) => l.split(',').slice(0, -1).map(Number));
const y = lines.map((l) => (l.endsWith('c1') ? 1 : 0));
// Features sampled per tree (its design), maxFeatures = mtry; bootstrap samples as ours.
const rf = new RandomForestClassifier({ nEstimators: Number(trees), maxFeatures: Number(mtry), seed: Number(seed),
  replacement: true, useSampleBagging: true });
const start = performance.now();
rf.train(X, y);
console.log(JSON.stringify({ train_ms: performance.now() - start }));
