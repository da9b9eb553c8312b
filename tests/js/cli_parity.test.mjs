import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// One answer per model kind and mode: the CLI's `predict --json [--proba] [--rule R] [--compare]`
// and JS predict / predictProba on the same model bytes and rows go through the core's one Predict.
const onnxDir = new URL('../fixtures/onnx/', import.meta.url);
const wdbcText = readDataset('wdbc');
const wdbcPath = fileURLToPath(new URL('wdbc.csv', datasetsDir));
// wdbc's feature columns named f0.. (an imported model's default names), for the imported models.
const [wdbcHeader, ...wdbcRows] = wdbcText.trim().split(/\r?\n/);
const width = wdbcHeader.split(',').length - 1;
const unnamedText = [Array.from({ length: width }, (_, i) => `f${i}`).join(','),
  ...wdbcRows.map((r) => r.split(',').slice(0, width).join(','))].join('\n') + '\n';
const unnamedPath = join(dir, 'wdbc-f.csv');
writeFileSync(unnamedPath, unnamedText);

function close(got, want, what) {
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= 1e-12, `${what}[${i}]: ${got[i]} vs ${want[i]}`);
}

// Model files written by the CLI: trained here, or imported (and calibrated) from ONNX fixtures.
function modelFiles() {
  const files = {};
  for (const [name, extra] of [['rf', []], ['adaboost', ['--ensemble', 'adaboost']], ['voteboost', ['--ensemble', 'voteboost']]]) {
    files[name] = { path: join(dir, `${name}.urnf`), data: wdbcPath, text: wdbcText };
    native(['train', '--data', wdbcPath, '--trees', '25', '--seed', '3', ...extra, '--out', files[name].path]);
  }
  for (const [name, fixture] of [['voting', 'sk_rf_wdbc_binary_zipmap'], ['additive', 'xgb_wdbc_binary_missing']]) {
    files[name] = { path: join(dir, `${name}.urnf`), data: unnamedPath, text: unnamedText };
    native(['import', '--onnx', fileURLToPath(new URL(`${fixture}.onnx`, onnxDir)), '--out', files[name].path]);
  }
  files.calibrated = { path: join(dir, 'calibrated.urnf'), data: unnamedPath, text: unnamedText };
  native(['calibrate', '--model', files.voting.path, '--data', unnamedPath, '--out', files.calibrated.path]);
  return files;
}

const modes = {
  rf: [[], ['--rule', 'hyper'], ['--rule', 'siba', '--alpha', '0.9']],
  adaboost: [[], ['--rule', 'hyper']],
  voteboost: [[], ['--rule', 'hyper', '--seed', '4']],
  voting: [[], ['--vote', 'hard'], ['--rule', 'alpha1']],
  additive: [[], ['--rule', 'alpha1']],
  calibrated: [['--rule', 'hyper'], ['--rule', 'margin', '--alpha', '0.95'], ['--rule', 'alpha1'], ['--rule', 'siba', '--vote', 'hard']],
};

// predict()'s options of a CLI argument list.
function optionsOf(args) {
  const o = {};
  for (let i = 0; i < args.length; i += 2) {
    const key = args[i].slice(2);
    o[key] = key === 'alpha' || key === 'seed' ? Number(args[i + 1]) : args[i + 1];
  }
  return o;
}

test('every model kind and mode answers the same in JS and the native CLI: labels, probabilities, trees, confidence, disagreement', () => {
  const files = modelFiles();
  for (const [kind, list] of Object.entries(modes)) {
    const forest = uf.Forest.fromBytes(new Uint8Array(readFileSync(files[kind].path)));
    const data = uf.Dataset.fromCSV(files[kind].text, { schemaOf: forest });
    for (const args of list) {
      const what = `${kind} ${args.join(' ') || 'full'}`;
      const base = ['predict', '--model', files[kind].path, '--data', files[kind].data, ...args];
      const o = optionsOf(args);
      if (o.rule === undefined) {
        const want = native([...base, '--proba']);
        const got = forest.predictProba(data, o.vote === undefined ? undefined : { vote: o.vote });
        assert.deepEqual(got.labels, want.labels, what);
        close(got.probabilities, want.probabilities.flat(), `${what} probabilities`);
        if (o.vote === undefined) {
          const full = forest.predict(data);
          assert.deepEqual(full.labels, want.labels, what);
          close(full.probabilities, want.probabilities.flat(), `${what} predict probabilities`);
          if (want.votes !== undefined) assert.deepEqual(Array.from(full.votes), want.votes, what);
        }
        continue;
      }
      const want = native([...base, '--compare', '--proba']);
      const got = forest.predict(data, { ...o, compare: true });
      assert.deepEqual(got.labels, want.labels, what);
      assert.deepEqual(Array.from(got.treesUsed), want.trees_used, what);
      close(got.confidence, want.confidence, `${what} confidence`);
      assert.ok(Math.abs(got.disagreement - want.disagreement) <= 1e-12, `${what} disagreement`);
      assert.ok(Math.abs(got.meanTrees - want.mean_trees) <= 1e-12, `${what} mean trees`);
      if (want.lambda !== undefined) assert.equal(got.lambda, want.lambda ?? Infinity, what);
      // Every result carries probabilities: a table rule's from its tallies, a soft rule's the model's own.
      close(got.probabilities, want.probabilities.flat(), `${what} probabilities`);
      if (got.tallies === undefined) {
        close(got.probabilities, forest.predictProba(data, { vote: 'soft' }).probabilities, `${what} soft probabilities`);
      }
    }
    data.dispose();
    forest.dispose();
  }
});

test("an AdaBoost model's probabilities are its weighted vote's shares, whose argmax is its label", () => {
  const data = uf.Dataset.fromCSV(wdbcText);
  const forest = uf.trainForest(data, { trees: 15, seed: 2, ensemble: 'adaboost' });
  const weights = forest.treeWeights();
  const p = forest.predictProba(data);
  const full = forest.predict(data);
  assert.deepEqual(p.labels, full.labels);
  close(p.probabilities, full.probabilities, 'predictProba vs predict');
  const total = weights.reduce((a, b) => a + b, 0);
  for (let r = 0; r < data.numRows; r++) {
    const shares = [full.scores[2 * r] / total, full.scores[2 * r + 1] / total];
    close(p.probabilities.subarray(2 * r, 2 * r + 2), shares, `row ${r}`);
    assert.equal(p.classIndex[r], shares[1] > shares[0] ? 1 : 0, `row ${r}`);
  }
  forest.dispose();
  data.dispose();
});
