import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init, runExperiment, UrnforestError } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { datasetsDir, readDataset } from './helpers.mjs';

const uf = await init();
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
const native = (args) => JSON.parse(execFileSync(cli, [...args, '--json', '--quiet'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const irisPath = fileURLToPath(new URL('iris.csv', datasetsDir));
const worker = new UrnforestWorker();
after(() => worker.terminate());

function withoutSeconds(doc) {
  const { seconds, ...rest } = doc;
  assert.equal(typeof seconds, 'number');
  return rest;
}

test('an experiment on iris (2 folds x 1 repeat) has the documented fields and the CLI numbers', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const doc = runExperiment({ data, name: 'iris', folds: 2, repeats: 1, trees: 21, seed: 5, rules: ['alpha1', 'siba', 'hyper'] });
  for (const key of ['dataset', 'rows', 'classes', 'partitions', 'full', 'rules', 'protocol', 'folds', 'query_order']) {
    assert.ok(key in doc, key);
  }
  assert.equal(doc.partitions, 2);
  assert.equal(doc.rows, 150);
  assert.equal(doc.classes, 3);
  for (const rule of ['alpha1', 'siba', 'hyper']) {
    for (const field of ['error', 'disagreement', 'trees', 'speedup_vs_alpha1', 'speedup_vs_T', 'expected_trees', 'expected_disagreement']) {
      assert.equal(typeof doc.rules[rule][field].mean, 'number', `${rule}.${field}`);
      assert.equal(typeof doc.rules[rule][field].std, 'number', `${rule}.${field}`);
    }
  }
  assert.equal(doc.rules.alpha1.disagreement.mean, 0);
  const want = native(['experiment', '--data', irisPath, '--folds', '2', '--repeats', '1', '--trees', '21',
    '--seed', '5', '--rules', 'alpha1,siba,hyper']);
  assert.deepEqual(withoutSeconds(doc), withoutSeconds(want));
  data.dispose();
});

test('double pruning and AdaBoost experiments match the CLI', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const doc = runExperiment({ data, name: 'iris', folds: 2, repeats: 1, trees: 21, seed: 8, rules: ['alpha1', 'siba'],
    prune: 'greedy-sdp', keep: 6, queryOrder: 'random' });
  assert.equal(doc.pruned.size, 6);
  assert.equal(doc.pruned.ordering, 'greedy-sdp');
  assert.equal(typeof doc.pruned.error.mean, 'number');
  assert.ok(doc.rules.siba.trees.mean <= 6);
  const want = native(['experiment', '--data', irisPath, '--folds', '2', '--repeats', '1', '--trees', '21',
    '--seed', '8', '--rules', 'alpha1,siba', '--prune', 'greedy-sdp', '--keep', '6', '--query-order', 'random']);
  assert.deepEqual(withoutSeconds(doc), withoutSeconds(want));
  const boosted = runExperiment({ data: 'twonorm', train: 60, test: 40, repeats: 2, trees: 11, ensemble: 'adaboost',
    rules: ['alpha1', 'siba'], alpha: [0.99, 0.9] });
  const wantBoosted = native(['experiment', '--data', 'twonorm', '--train', '60', '--test', '40', '--repeats', '2',
    '--trees', '11', '--ensemble', 'adaboost', '--rules', 'alpha1,siba', '--alpha', '0.99,0.9']);
  assert.deepEqual(withoutSeconds(boosted), withoutSeconds(wantBoosted));
  assert.equal(boosted.alpha_sweep.length, 2);
  data.dispose();
});

test('experiment progress counts partitions; returning false cancels', () => {
  const calls = [];
  runExperiment({ data: 'circle', train: 30, test: 20, repeats: 3, trees: 5 }, { onProgress: (done, total) => { calls.push([done, total]); } });
  assert.deepEqual(calls, [[0, 3], [1, 3], [2, 3], [3, 3]]);
  assert.throws(() => runExperiment({ data: 'circle', train: 30, test: 20, repeats: 3, trees: 5 }, { onProgress: (done) => done < 1 }),
    (e) => e instanceof uf.UrnforestError && e.code === 'InvalidArgument' && /cancelled/.test(e.message));
  const boom = new Error('boom');
  assert.throws(() => runExperiment({ data: 'circle', train: 30, test: 20, repeats: 1, trees: 5 }, { onProgress: () => { throw boom; } }), (e) => e === boom);
});

test('experiment options are validated by name', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const bad = [
    [{}, TypeError, /data/],
    [{ data: 'spiral' }, RangeError, /twonorm/],
    [{ data: 42 }, TypeError, /data/],
    [{ data: 'twonorm', folds: 3 }, TypeError, /folds/],
    [{ data, train: 10 }, TypeError, /train/],
    [{ data, folds: 3, holdout: 0.3 }, TypeError, /holdout/],
    [{ data, holdout: 1.5 }, RangeError, /holdout/],
    [{ data, trees: 0 }, RangeError, /trees/],
    [{ data, alpha: [0.9, 2] }, RangeError, /alpha/],
    [{ data, rules: ['siba', 'siba'] }, RangeError, /twice/],
    [{ data, rules: ['fast'] }, RangeError, /rules\[0\]/],
    [{ data, keep: 3 }, UrnforestError, /^InvalidArgument: option keep needs prune/],
    [{ data, prune: 'best' }, RangeError, /prune/],
    [{ data, prune: 'early', keep: 102 }, RangeError, /keep/],
    [{ data, queryOrder: 'sideways' }, RangeError, /queryOrder/],
    [{ data, boosting: 'resample' }, UrnforestError, /^InvalidArgument: option boosting needs ensemble adaboost/],
    [{ data, stratified: 'yes' }, TypeError, /stratified/],
    [{ data, colour: 'red' }, TypeError, /colour/],
  ];
  for (const [options, Kind, pattern] of bad) {
    assert.throws(() => runExperiment(options), (e) => e instanceof Kind && pattern.test(e.message), JSON.stringify(Object.keys(options)));
  }
  assert.throws(() => runExperiment({ data }, { onProgress: 1 }), TypeError);
  assert.deepEqual(uf.generators(), ['twonorm', 'threenorm', 'ringnorm', 'waveform', 'led', 'circle']);
  data.dispose();
});

test('a worker experiment reports progress, matches the main thread and can be cancelled', async () => {
  const options = { data: { csv: readDataset('iris') }, name: 'iris', folds: 2, repeats: 1, trees: 15, seed: 3, rules: ['siba'] };
  const seen = [];
  const doc = await worker.experiment(options, { onProgress: (p) => seen.push(p) });
  assert.ok(seen.some((p) => p.stage === 'experiment' && p.fraction === 1));
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const local = runExperiment({ ...options, data });
  assert.deepEqual(withoutSeconds(doc), withoutSeconds(local));
  data.dispose();

  const controller = new AbortController();
  let partitions = 0;
  const job = worker.experiment({ data: 'twonorm', train: 300, test: 1000, repeats: 200, trees: 101 }, {
    signal: controller.signal,
    onProgress: (p) => { if (p.stage === 'experiment' && p.fraction > 0 && ++partitions === 2) controller.abort(); },
  });
  await assert.rejects(job, (e) => e.name === 'AbortError');
  assert.ok(partitions >= 2);
  const again = await worker.experiment({ data: 'circle', train: 30, test: 20, repeats: 1, trees: 5 });
  assert.equal(again.partitions, 1);
  await assert.rejects(worker.experiment({ data: 7 }), TypeError);
});

test('an experiment beyond maxWork row-trees is refused before any work; the estimate is named', () => {
  let calls = 0;
  assert.throws(() => runExperiment({ data: 'twonorm', train: 300, test: 100, repeats: 100, proxyTrees: 100000 },
    { onProgress: () => { calls++; } }), (e) => e.code === 'LimitExceeded' && /row-trees/.test(e.message) && /maxWork/.test(e.message));
  assert.equal(calls, 0);
  assert.throws(() => runExperiment({ data: 'twonorm', maxWork: 0 }), RangeError);
  assert.throws(() => runExperiment({ data: 'twonorm', maxWork: '1e9' }), RangeError);
});
