// Batch prediction speed of urnforest/predict (the core compiled for size, -Oz, no exceptions) against
// the full package (-O3), in this Node process: the same model (wdbc, rf, 101 trees, seed 1), the
// same 18,208 rows (wdbc tiled), full vote and siba at alpha 0.99; rounds alternate the two entries and
// the report is the median ms per call and the ratio. Not a test.
//
//   node bench/predict_entry_speed.mjs [--rounds 7]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import * as full from '../dist/index.js';
import * as only from '../dist/predict.js';
import { numberOption } from './args.mjs';

const rounds = numberOption('rounds', 7);
await full.init();
await only.init();
const csv = readFileSync(new URL('../datasets/wdbc.csv', import.meta.url), 'utf8').trim();
const train = full.Dataset.fromCSV(csv);
const forest = full.trainForest(train, { trees: 101, seed: 1 });
const slim = only.Forest.fromBytes(forest.toBytes());
const base = train.toRowMajor();
const rows = 18208;
const x = new Float32Array(rows * train.numFeatures);
for (let at = 0; at < x.length; at += base.length) x.set(base.subarray(0, Math.min(base.length, x.length - at)), at);
const data = full.Dataset.fromArrays(x, { rows, cols: train.numFeatures, featureNames: train.featureNames });
const cases = { full: undefined, siba: { rule: 'siba', alpha: 0.99 } };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const report = { date: new Date().toISOString(), rounds, rows, trees: 101, load: [], cases: {} };
for (const [name, options] of Object.entries(cases)) {
  const t = { full: [], predict: [] };
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 ? ['predict', 'full'] : ['full', 'predict']) {
      const start = performance.now();
      if (which === 'full') forest.predict(data, options);
      else slim.predict(x, options);
      t[which].push(performance.now() - start);
    }
    report.load.push(loadavg()[0]);
  }
  report.cases[name] = { fullMs: median(t.full), predictMs: median(t.predict), ratio: median(t.predict) / median(t.full) };
}
console.log(JSON.stringify(report, null, 2));
