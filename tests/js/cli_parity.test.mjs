import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, rules } from '../../dist/index.js';
import { datasetsDir, readDataset } from './helpers.mjs';

const uf = await init();
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'urnforest-parity-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function native(args) {
  return JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

const cases = [
  ['wdbc', { trees: 101, seed: 7 }, [{}, { alpha: 0.95 }, { order: 'random', seed: 3 }]],
  ['iris', { trees: 51, seed: 2 }, [{}, { alpha: 0.9 }, { order: 'random', seed: 11 }]],
];

for (const [name, trainOptions, variants] of cases) {
  test(`halted predictions equal the native CLI's for every rule on ${name}`, () => {
    const data = uf.Dataset.fromCSV(readDataset(name));
    const forest = uf.trainForest(data, trainOptions);
    const modelPath = join(dir, `${name}.ufm`);
    writeFileSync(modelPath, forest.toBytes());
    const dataPath = fileURLToPath(new URL(`${name}.csv`, datasetsDir));
    const reloaded = uf.Forest.fromBytes(forest.toBytes());
    const full = native(['predict', '--model', modelPath, '--data', dataPath]);
    assert.deepEqual(reloaded.predict(data).labels, full.labels);
    for (const rule of rules) {
      for (const variant of variants) {
        const args = ['predict', '--model', modelPath, '--data', dataPath, '--rule', rule, '--compare', '--proba'];
        if (variant.alpha !== undefined) args.push('--alpha', String(variant.alpha));
        if (variant.order !== undefined) args.push('--order', variant.order, '--seed', String(variant.seed));
        const want = native(args);
        const got = reloaded.predict(data, { rule, ...variant, compare: true });
        const what = `${name} ${rule} ${JSON.stringify(variant)}`;
        assert.deepEqual(got.labels, want.labels, what);
        assert.deepEqual(Array.from(got.treesUsed), want.trees_used, what);
        // Halted probabilities: the posterior mean of the final vote shares, the same natively.
        const k = got.classNames.length;
        want.probabilities.forEach((row, r) => row.forEach((p, c) => assert.ok(Math.abs(p - got.probabilities[r * k + c]) < 1e-9, `${what} p[${r}][${c}]`)));
        assert.ok(Math.abs(got.meanTrees - want.mean_trees) < 1e-9, what);
        assert.ok(Math.abs(got.disagreement - want.disagreement) < 1e-12, what);
        for (let i = 0; i < want.confidence.length; i++) {
          assert.ok(Math.abs(got.confidence[i] - want.confidence[i]) < 1e-6, `${what} confidence[${i}]`);
        }
      }
    }
    reloaded.dispose();
    forest.dispose();
    data.dispose();
  });
}

test('tables and expected cost equal the native CLI', () => {
  const data = uf.Dataset.fromCSV(readDataset('wdbc'));
  const forest = uf.trainForest(data, { trees: 101, seed: 7 });
  const modelPath = join(dir, 'wdbc-table.ufm');
  writeFileSync(modelPath, forest.toBytes());
  for (const rule of ['hyper', '1dir', 'ndir', 'optimal']) {
    const want = native(['table', '--model', modelPath, '--rule', rule, '--alpha', '0.99']);
    const table = forest.haltingTable({ rule, alpha: 0.99 });
    assert.deepEqual([Array.from(table.binaryThresholds(0)), Array.from(table.binaryThresholds(1))], want.tables, rule);
    table.dispose();
    const cost = native(['expected', '--model', modelPath, '--rule', rule, '--samples', '2000', '--seed', '5']);
    const got = forest.expectedCost({ rule, samples: 2000, seed: 5 });
    assert.ok(Math.abs(got.expectedTrees - cost.expected_trees) < 1e-9, rule);
    assert.ok(Math.abs(got.disagreement - cost.disagreement) < 1e-12, rule);
    assert.equal(got.monteCarloTrees, cost.monte_carlo_trees, rule);
  }
  const siba = native(['table', '--trees', '51', '--alpha', '0.95', '--classes', '2', '--rule', 'siba']);
  const table = uf.haltingTable({ rule: 'siba', trees: 51, alpha: 0.95 });
  assert.deepEqual(Array.from(table.binaryThresholds(0)), siba.min_majority);
  table.dispose();
  const p = native(['pstar', '--trees', '101', '--classes', '3', '--rule', 'siba', '--votes', '9,2,1']);
  const q = uf.pstar({ rule: 'siba', trees: 101, votes: [9, 2, 1] });
  assert.ok(Math.abs(q.pstar - p.pstar) < 1e-9);
  assert.deepEqual([q.leader, q.halt, q.exact], [p.leader, p.halt, p.exact]);
  forest.dispose();
  data.dispose();
});
