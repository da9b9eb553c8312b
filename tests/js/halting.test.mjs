import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, rules, HaltingTable, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();

const SIBA_101 = [6, 8, 10, 12, 13, 15, 16, 18, 19, 20, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36,
  37, 38, 39, 40, 40, 41, 42, 43, 44, 44, 45, 46, 46, 47, 48, 48, 49, 49, 50, 50, 51, 51, 51, 51, 51, 51];

const wdbc = uf.Dataset.fromCSV(readDataset('wdbc'));
const wdbcForest = uf.trainForest(wdbc, { trees: 101, seed: 3 });
const iris = uf.Dataset.fromCSV(readDataset('iris'));
const irisForest = uf.trainForest(iris, { trees: 51, seed: 5 });

test('rules lists the seven rule names, frozen', () => {
  assert.deepEqual([...rules], ['alpha1', 'siba', 'hyper', '1dir', 'ndir', 'infinite', 'optimal']);
  assert.ok(Object.isFrozen(rules));
  assert.equal(uf.rules, rules);
});

test('siba table for T = 101, alpha = 0.99 matches the thesis', () => {
  const table = uf.haltingTable({ rule: 'siba', trees: 101, classes: 2, alpha: 0.99 });
  assert.deepEqual([...table.binaryThresholds(0)], SIBA_101);
  assert.deepEqual([...table.binaryThresholds(1)], SIBA_101);
  assert.equal(table.rule, 'siba');
  assert.equal(table.alpha, 0.99);
  assert.equal(table.numTrees, 101);
  assert.equal(table.numClasses, 2);
  assert.equal(table.layout, 'thresholds');
  assert.equal(table.monotone, true);
  assert.equal(table.halts([6, 0]), true);
  assert.equal(table.halts([5, 0]), false);
  assert.equal(table.halts(new Int32Array([0, 6])), true);
  assert.equal(table.leader([3, 3]), -1);
  assert.equal(table.leader([2, 3]), 1);
  assert.equal(table.minLeaderVotes(0, [0]), 6);
  assert.equal(table.minLeaderVotes(1, [1]), 8);
  assert.ok(table.confidence([6, 0]) >= 0.99);
  assert.equal(table.confidence([3, 3]), 0);
  table.dispose();
});

test('exact expected cost of siba T = 101 for a final tally (exact dynamic programme over the draws) and Monte Carlo within 1%', () => {
  const table = uf.haltingTable({ rule: 'siba' });
  const cases = [[101, 6.0], [95, 7.25], [90, 8.70], [80, 13.46], [70, 23.50], [60, 47.45], [55, 69.36], [51, 86.21]];
  for (const [f, trees] of cases) {
    const cost = table.expectedCost({ final: [f, 101 - f] });
    assert.equal(cost.exact, true);
    assert.ok(Math.abs(cost.expectedTrees - trees) < 0.006, `${f}: ${cost.expectedTrees}`);
    assert.ok(cost.stopProbability instanceof Float64Array);
    assert.equal(cost.stopProbability.length, 102);
    assert.ok(Math.abs(cost.stopProbability.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    assert.ok(Number.isNaN(cost.monteCarloTrees));
  }
  const mc = table.expectedCost({ final: [80, 21], samples: 20000, seed: 2 });
  assert.ok(Math.abs(mc.monteCarloTrees - mc.expectedTrees) / mc.expectedTrees < 0.01);
  assert.equal(mc.monteCarloSamples, 20000);
  const overPrior = table.expectedCost();
  assert.equal(overPrior.exact, true);
  assert.ok(overPrior.expectedTrees > 6 && overPrior.expectedTrees < 101);
  assert.ok(Math.abs(overPrior.monteCarloTrees - overPrior.expectedTrees) / overPrior.expectedTrees < 0.03);
  table.dispose();
});

test('pstar matches the thesis values and the CLI semantics', () => {
  const a = uf.pstar({ rule: 'siba', trees: 101, votes: [5, 0] });
  assert.ok(Math.abs(a.pstar - 0.986625) < 1e-6, String(a.pstar));
  assert.deepEqual([a.leader, a.halt, a.exact], [0, false, true]);
  const b = uf.pstar({ rule: 'siba', trees: 101, classes: 2, votes: new Int32Array([0, 6]), alpha: 0.99 });
  assert.ok(Math.abs(b.pstar - 0.993731) < 1e-6);
  assert.deepEqual([b.leader, b.halt], [1, true]);
  const inf = uf.pstar({ rule: 'infinite', trees: 101, votes: [6, 0] });
  assert.ok(Math.abs(inf.pstar - 127 / 128) < 1e-12);
  assert.equal(inf.exact, true);
  assert.equal(uf.pstar({ rule: 'infinite', trees: 101, votes: [2, 1, 1] }).exact, false);
  assert.equal(uf.pstar({ rule: 'siba', trees: 101, votes: [3, 3] }).leader, -1);
  const three = uf.haltingTable({ rule: 'siba', trees: 101, classes: 3 });
  assert.equal(three.minLeaderVotes(0, [0, 0]), 7);
  assert.equal(three.minLeaderVotes(0, [5, 5]), 16);
  assert.equal(three.minLeaderVotes(2, [30, 30]), 36);
  three.dispose();
});

test('alpha1 halted predictions equal the full vote', () => {
  for (const [forest, data] of [[wdbcForest, wdbc], [irisForest, iris]]) {
    const full = forest.predict(data);
    const halted = forest.predict(data, { rule: 'alpha1', compare: true });
    assert.deepEqual(halted.classIndex, full.classIndex);
    assert.deepEqual(halted.labels, full.labels);
    assert.deepEqual(halted.fullClassIndex, full.classIndex);
    assert.deepEqual(halted.fullVotes, full.votes);
    assert.equal(halted.disagreement, 0);
    assert.ok(halted.meanTrees < forest.numTrees);
    assert.ok(halted.haltedEarly.some((h) => h === 1));
  }
});

test('every rule predicts with the documented shapes on wdbc and iris', () => {
  for (const [forest, data] of [[wdbcForest, wdbc], [irisForest, iris]]) {
    const n = data.numRows;
    for (const rule of rules) {
      const out = forest.predict(data, { rule, alpha: 0.95, compare: true });
      assert.equal(out.rule, rule);
      assert.equal(out.alpha, 0.95);
      assert.equal(out.trees, forest.numTrees);
      assert.ok(out.classIndex instanceof Int32Array && out.classIndex.length === n);
      assert.ok(out.treesUsed instanceof Int32Array && out.treesUsed.length === n);
      assert.ok(out.confidence instanceof Float64Array && out.confidence.length === n);
      assert.ok(out.haltedEarly instanceof Uint8Array && out.haltedEarly.length === n);
      assert.ok(out.fullClassIndex instanceof Int32Array && out.fullClassIndex.length === n);
      assert.equal(out.labels.length, n);
      assert.deepEqual(out.classNames, forest.classNames);
      let used = 0;
      let differ = 0;
      for (let i = 0; i < n; i++) {
        assert.ok(out.treesUsed[i] >= 1 && out.treesUsed[i] <= forest.numTrees);
        assert.equal(out.haltedEarly[i], out.treesUsed[i] < forest.numTrees ? 1 : 0);
        assert.equal(out.labels[i], forest.classNames[out.classIndex[i]]);
        used += out.treesUsed[i];
        differ += out.classIndex[i] !== out.fullClassIndex[i] ? 1 : 0;
      }
      assert.ok(Math.abs(out.meanTrees - used / n) < 1e-12);
      assert.equal(out.disagreement, differ / n);
      assert.ok(out.meanTrees < forest.numTrees, `${rule} should halt early on some rows`);
    }
  }
});

test('a smaller queried ensemble (trees) and random order', () => {
  const out = wdbcForest.predict(wdbc, { rule: 'siba', trees: 21 });
  assert.equal(out.trees, 21);
  assert.ok(out.treesUsed.every((t) => t >= 1 && t <= 21));
  const sub = uf.trainForest(wdbc, { trees: 101, seed: 3 });
  const a = sub.predict(wdbc, { rule: 'hyper', order: 'random', seed: 9 });
  const b = wdbcForest.predict(wdbc, { rule: 'hyper', order: 'random', seed: 9 });
  const c = wdbcForest.predict(wdbc, { rule: 'hyper', order: 'random', seed: 10 });
  assert.deepEqual(a.treesUsed, b.treesUsed);
  assert.notDeepEqual(b.treesUsed, c.treesUsed);
  sub.dispose();
});

test('compare: false gives the same halted answer without the full vote', () => {
  for (const [forest, data] of [[wdbcForest, wdbc], [irisForest, iris]]) {
    for (const order of ['generation', 'random']) {
      const both = forest.predict(data, { rule: 'siba', order });
      const only = forest.predict(data, { rule: 'siba', order, compare: false });
      assert.deepEqual(only.classIndex, both.classIndex);
      assert.deepEqual(only.treesUsed, both.treesUsed);
      assert.deepEqual(only.confidence, both.confidence);
      assert.deepEqual(only.haltedEarly, both.haltedEarly);
      assert.equal(only.meanTrees, both.meanTrees);
      assert.equal(only.fullClassIndex, undefined);
      assert.equal(only.fullVotes, undefined);
      assert.equal(only.disagreement, undefined);
    }
  }
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', compare: 1 }), TypeError);
  assert.throws(() => wdbcForest.trace(wdbc, 0, { rule: 'siba', compare: false }), TypeError);
});

test('every row of predict equals its trace (the reference vote) for every rule and order', () => {
  // predict runs the blocked fast path (inline thresholds and P*); trace runs the per-row reference
  // (HaltingTable::Halts / Confidence): stop points, labels and confidences must be bit-identical.
  for (const [forest, data] of [[wdbcForest, wdbc], [irisForest, iris]]) {
    for (const rule of rules) {
      for (const order of ['generation', 'random']) {
        const options = { rule, alpha: 0.95, order, seed: 6 };
        const out = forest.predict(data, { ...options, compare: false });
        for (let row = 0; row < data.numRows; row += 3) {
          const trace = forest.trace(data, row, options);
          const at = `${rule} ${order} row ${row}`;
          assert.equal(out.treesUsed[row], trace.treesUsed, at);
          assert.equal(out.classIndex[row], trace.classIndex, at);
          assert.equal(out.haltedEarly[row], trace.haltedEarly ? 1 : 0, at);
          const T = out.trees;
          const want = trace.treesUsed === T && rule !== 'infinite' ? 1 : trace.confidence[trace.treesUsed - 1];
          assert.equal(out.confidence[row], want, at);
        }
      }
    }
  }
});

test('the halted result arrays are separate: writing one leaves the others', () => {
  const out = wdbcForest.predict(wdbc, { rule: 'hyper', compare: false });
  const before = [out.confidence.slice(), out.treesUsed.slice(), out.haltedEarly.slice()];
  out.classIndex.fill(-1);
  assert.deepEqual([out.confidence, out.treesUsed, out.haltedEarly], before);
  const again = wdbcForest.predict(wdbc, { rule: 'hyper', compare: false });
  assert.notDeepEqual(again.classIndex, out.classIndex);
  again.classNames[0] = 'changed';
  assert.notEqual(wdbcForest.predict(wdbc, { rule: 'hyper' }).classNames[0], 'changed');
});

test('trace: treesUsed and label equal predict for the same row; votes cover all trees', () => {
  for (const [forest, data] of [[wdbcForest, wdbc], [irisForest, iris]]) {
    for (const options of [{ rule: 'hyper' }, { rule: 'siba', order: 'random', seed: 4 }, { rule: 'infinite', alpha: 0.9, trees: 31 }]) {
      const out = forest.predict(data, { ...options, compare: true });
      for (const row of [0, 1, 7, data.numRows - 1]) {
        const trace = forest.trace(data, row, options);
        const T = out.trees;
        assert.equal(trace.treesUsed, out.treesUsed[row]);
        assert.equal(trace.classIndex, out.classIndex[row]);
        assert.equal(trace.label, out.labels[row]);
        assert.equal(trace.haltedEarly, out.haltedEarly[row] === 1);
        assert.equal(trace.fullClassIndex, out.fullClassIndex[row]);
        assert.ok(trace.trees instanceof Int32Array && trace.trees.length === T);
        assert.ok(trace.votes instanceof Int32Array && trace.votes.length === T);
        assert.ok(trace.confidence instanceof Float64Array && trace.confidence.length === T);
        assert.deepEqual([...trace.trees].sort((x, y) => x - y), Array.from({ length: T }, (_, i) => i));
        assert.equal(trace.fullVotes.reduce((x, y) => x + y, 0), T);
        assert.deepEqual(trace.fullVotes, out.fullVotes.slice(row * forest.numClasses, (row + 1) * forest.numClasses));
        assert.ok(Math.abs(trace.confidence[trace.treesUsed - 1] - out.confidence[row]) < 1e-12);
        assert.ok(trace.leaders instanceof Int32Array && trace.leaders.length === T);
        if (trace.haltedEarly) assert.equal(trace.leaders[trace.treesUsed - 1], trace.classIndex);
      }
    }
  }
});

test('forest.haltingTable builds every rule; the caller owns it', () => {
  for (const rule of rules) {
    const table = wdbcForest.haltingTable({ rule, alpha: 0.99 });
    assert.ok(table instanceof HaltingTable);
    assert.equal(table.rule, rule);
    assert.equal(table.numTrees, 101);
    assert.equal(table.numClasses, 2);
    const t0 = table.binaryThresholds(0);
    assert.ok(t0 instanceof Int32Array);
    if (rule === 'alpha1') assert.equal(table.layout, 'leadRule');
    assert.equal(table.halts([101, 0]), rule !== 'infinite' || table.confidence([101, 0]) > 0.99);
    const again = HaltingTable.fromBytes(table.toBytes());
    assert.deepEqual(again.binaryThresholds(1), table.binaryThresholds(1));
    assert.equal(again.rule, rule);
    again.dispose();
    table.dispose();
    assert.equal(table.disposed, true);
  }
  const small = irisForest.haltingTable({ rule: 'hyper', trees: 21, alpha: 0.95 });
  assert.deepEqual([small.numTrees, small.numClasses], [21, 3]);
  assert.throws(() => small.binaryThresholds(0), RangeError);
  assert.ok(small.minLeaderVotes(0, [0, 0]) <= 22);
  small.dispose();
});

test('table.expectedCost over the table prior and for a final tally', () => {
  const table = wdbcForest.haltingTable({ rule: 'hyper' });
  const prior = table.expectedCost({ samples: 2000 });
  assert.equal(prior.exact, true);
  assert.ok(prior.expectedTrees >= 1 && prior.expectedTrees <= 101);
  assert.ok(prior.disagreement >= 0 && prior.disagreement <= 1);
  const final = table.expectedCost({ final: [90, 11] });
  assert.ok(final.expectedTrees < 101);
  const loaded = HaltingTable.fromBytes(table.toBytes());
  assert.throws(() => loaded.expectedCost(), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument');
  assert.ok(loaded.expectedCost({ final: [90, 11] }).expectedTrees === final.expectedTrees);
  loaded.dispose();
  table.dispose();
});

test('forest.expectedCost averages any rule over the OOB data prior', () => {
  const measured = wdbcForest.predict(wdbc, { rule: 'hyper' });
  for (const rule of rules) {
    const cost = wdbcForest.expectedCost({ rule, samples: 3000 });
    assert.equal(cost.exact, true, rule);
    assert.ok(cost.stopProbability instanceof Float64Array && cost.stopProbability.length === 102);
    assert.ok(cost.expectedTrees >= 1 && cost.expectedTrees <= 101);
    assert.ok(cost.disagreement >= 0 && cost.disagreement < 0.5);
    assert.ok(Math.abs(cost.monteCarloTrees - cost.expectedTrees) / cost.expectedTrees < 0.1, rule);
    if (rule === 'alpha1') assert.equal(cost.disagreement, 0);
  }
  const hyper = wdbcForest.expectedCost({ rule: 'hyper', samples: 0 });
  assert.ok(Number.isNaN(hyper.monteCarloTrees));
  assert.ok(Math.abs(hyper.expectedTrees - measured.meanTrees) < 10, `${hyper.expectedTrees} vs ${measured.meanTrees}`);
  const irisCost = irisForest.expectedCost({ rule: 'ndir', trees: 21 });
  assert.equal(irisCost.stopProbability.length, 22);
});

test('forest.prior: kinds, components and final-tally masses', () => {
  const kinds = { alpha1: 'uniform', siba: 'uniform', infinite: 'uniform', hyper: 'histogram', optimal: 'histogram', '1dir': 'dirichlet', ndir: 'mixture' };
  for (const rule of rules) {
    const p = wdbcForest.prior(rule);
    assert.equal(p.kind, kinds[rule], rule);
    assert.equal(p.classes, 2);
    assert.equal(p.trees, 101);
    assert.ok(p.finalTallyMass instanceof Float64Array && p.finalTallyMass.length === 102);
    assert.ok(Math.abs(p.finalTallyMass.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    if (p.kind === 'histogram') assert.equal(p.components.length, 0);
    if (p.kind === 'mixture') assert.equal(p.components.length, 2);
    for (const c of p.components) {
      assert.ok(c.beta instanceof Float64Array && c.beta.length === 2);
      assert.ok(c.weight >= 0);
    }
  }
  const irisPrior = irisForest.prior('hyper', { trees: 10 });
  assert.equal(irisPrior.finalTallyMass.length, 66);
  const labels = wdbcForest.trainLabels();
  assert.ok(labels instanceof Int32Array);
  assert.equal(labels.length * 2, wdbcForest.oobVotes().length);
  assert.deepEqual(labels, wdbc.labels());
});

test('many classes: every rule halts, hyper decides on demand with a kernel-mixture prior, no final-tally mass', () => {
  const soy = uf.Dataset.fromCSV(readDataset('soybean'));
  const forest = uf.trainForest(soy, { trees: 21, seed: 1 });
  assert.ok(forest.numClasses > 4);
  const out = forest.predict(soy, { rule: 'siba' });
  assert.ok(out.meanTrees <= 21);
  for (const rule of ['hyper', '1dir', 'ndir', 'optimal', 'infinite']) {
    const halted = forest.predict(soy, { rule, compare: true });
    assert.ok(halted.meanTrees < 21, rule);
    assert.ok(halted.disagreement <= 0.05, rule);
  }
  const table = forest.haltingTable({ rule: 'hyper' });
  assert.equal(table.layout, 'onDemand');
  assert.ok(table.buildMs >= 0 && table.memoryBytes > 0);
  table.dispose();
  const hyper = forest.prior('hyper');
  assert.equal(hyper.kind, 'mixture');
  assert.ok(hyper.components.length >= 2 && hyper.components.length <= 65);
  assert.equal(hyper.finalTallyMass, null);
  const p = forest.prior('ndir');
  assert.equal(p.finalTallyMass, null);
  assert.equal(p.components.length, forest.numClasses);
  const cost = forest.expectedCost({ rule: 'siba', samples: 500 });
  assert.equal(cost.exact, false);
  assert.equal(cost.stopProbability, null);
  assert.equal(cost.expectedTrees, cost.monteCarloTrees);
  assert.equal(typeof cost.exactUnavailable, 'string');
  forest.dispose();
  soy.dispose();
});

test('halting errors: TypeError / RangeError naming the option, UrnforestError codes', () => {
  const range = (name) => (e) => e instanceof RangeError && e.message.includes(name);
  const type = (name) => (e) => e instanceof TypeError && e.message.includes(name);
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'hyperr' }), range('rule'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 3 }), type('rule'));
  assert.throws(() => wdbcForest.predict(wdbc, {}), type('rule'));
  assert.throws(() => wdbcForest.predict(wdbc, 'hyper'), type('options'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', alpha: 0 }), range('alpha'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', alpha: 1.5 }), range('alpha'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', alpha: Number.NaN }), range('alpha'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', alpha: '0.9' }), type('alpha'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', trees: 102 }), range('trees'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', trees: 0 }), range('trees'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', trees: 2.5 }), type('trees'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', order: 'reverse' }), range('order'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', seed: -1 }), range('seed'));
  assert.throws(() => wdbcForest.predict(wdbc, { rule: 'siba', alhpa: 0.9 }), type('alhpa'));
  assert.throws(() => wdbcForest.trace(wdbc, wdbc.numRows, { rule: 'siba' }), range('row'));
  assert.throws(() => wdbcForest.trace(wdbc, '0', { rule: 'siba' }), type('row'));
  assert.throws(() => wdbcForest.expectedCost({ rule: 'siba', samples: -1 }), range('samples'));
  assert.throws(() => wdbcForest.prior('x'), range('rule'));
  assert.throws(() => wdbcForest.prior('siba', { trees: 500 }), range('trees'));
  assert.throws(() => uf.haltingTable({ rule: 'hyper' }), range('hyper'));
  assert.throws(() => uf.haltingTable({ rule: 'siba', classes: 1 }), range('classes'));
  assert.throws(() => uf.haltingTable({ rule: 'siba', trees: 100001 }), range('trees'));
  assert.throws(() => uf.haltingTable({ rule: 'siba', clases: 3 }), type('clases'));
  assert.throws(() => uf.haltingTable(), type('rule'));
  assert.throws(() => uf.pstar({ rule: 'siba', trees: 10, votes: [6, 6] }), range('votes'));
  assert.throws(() => uf.pstar({ rule: 'siba', trees: 10, votes: [1, -1] }), range('votes[1]'));
  assert.throws(() => uf.pstar({ rule: 'siba', trees: 10, votes: [1, 0.5] }), type('votes[1]'));
  assert.throws(() => uf.pstar({ rule: 'siba', trees: 10, votes: 'ab' }), type('votes'));
  assert.throws(() => uf.pstar({ rule: 'siba', trees: 10, classes: 3, votes: [1, 1] }), range('votes'));
  assert.throws(() => uf.pstar({ rule: 'ndir', trees: 10, votes: [1, 1] }), range('ndir'));
  const table = uf.haltingTable({ rule: 'siba', trees: 11 });
  assert.throws(() => table.halts([1, 2, 3]), range('tally'));
  assert.throws(() => table.halts([10, 2]), range('tally'));
  assert.throws(() => table.halts({ 0: 1, 1: 2 }), type('tally'));
  assert.throws(() => table.minLeaderVotes(2, [0]), range('c'));
  assert.throws(() => table.binaryThresholds(), type('c'));
  assert.throws(() => table.expectedCost({ final: [5, 5] }), range('final'));
  assert.throws(() => table.expectedCost({ fnial: [5, 6] }), type('fnial'));
  assert.throws(() => HaltingTable.fromBytes(new Uint8Array([1, 2, 3])), (e) => e instanceof UrnforestError && e.code === 'CorruptModel');
  assert.throws(() => HaltingTable.fromBytes([1]), TypeError);
  assert.throws(() => new HaltingTable(), TypeError);
  table.dispose();
  assert.throws(() => table.halts([1, 0]), /disposed/);
  table.dispose();
});

test('halted prediction of data with other columns is ColumnMismatch', () => {
  const other = uf.Dataset.fromArrays(new Float32Array(6), { rows: 2, cols: 3 });
  const mismatch = (e) => e instanceof UrnforestError && e.code === 'ColumnMismatch';
  assert.throws(() => irisForest.predict(other, { rule: 'hyper' }), mismatch);
  assert.throws(() => irisForest.trace(other, 0, { rule: 'hyper' }), mismatch);
  other.dispose();
});

test('the halted arrays and each full-vote array can be transferred together in one message', () => {
  const p = wdbcForest.predict(wdbc, { rule: 'hyper', compare: true });
  const want = Array.from(p.fullClassIndex);
  // As the demo's worker posts a heat-map grid: a buffer named twice in a transfer list throws.
  const moved = structuredClone({ t: p.treesUsed, f: p.fullClassIndex, v: p.fullVotes },
    { transfer: [p.treesUsed.buffer, p.fullClassIndex.buffer, p.fullVotes.buffer] });
  assert.deepEqual(Array.from(moved.f), want);
  assert.equal(moved.t.length, wdbc.numRows);
  assert.equal(moved.v.length, 2 * wdbc.numRows);
});

test('an empty dataset gets empty halted answers, with and without the full vote', () => {
  const empty = iris.subset([]);
  const both = irisForest.predict(empty, { rule: 'siba', compare: true });
  assert.deepEqual([both.classIndex.length, both.treesUsed.length, both.fullClassIndex.length, both.fullVotes.length],
    [0, 0, 0, 0]);
  assert.equal(both.meanTrees, 0);
  assert.equal(both.disagreement, 0);
  const only = irisForest.predict(empty, { rule: 'siba' });
  assert.equal(only.classIndex.length, 0);
  assert.equal(only.fullVotes, undefined);
  empty.dispose();
});

test('a failed halted prediction leaves the next one unaffected', () => {
  const other = uf.Dataset.fromArrays(new Float32Array(6), { rows: 2, cols: 3 });
  const want = irisForest.predict(iris, { rule: 'hyper', compare: false });
  assert.throws(() => irisForest.predict(other, { rule: 'hyper' }), (e) => e.code === 'ColumnMismatch');
  assert.deepEqual(irisForest.predict(iris, { rule: 'hyper', compare: false }), want);
  assert.throws(() => irisForest.predict(other, { rule: 'hyper' }), (e) => e.code === 'ColumnMismatch');
  other.dispose();
});

test('alternating halting options each get their own table (the last one is reused only for the same options)', () => {
  const forest = uf.Forest.fromBytes(wdbcForest.toBytes());
  const optionSets = [{ rule: 'siba' }, { rule: 'siba', alpha: 0.9 }, { rule: 'hyper' }, { rule: 'siba', trees: 51 },
    { rule: 'hyper', alpha: 0.9 }, { rule: 'siba' }];
  const fresh = optionSets.map((o) => {
    const f = uf.Forest.fromBytes(wdbcForest.toBytes());
    const r = f.predict(wdbc, o);
    f.dispose();
    return r;
  });
  for (let round = 0; round < 2; round++) {
    optionSets.forEach((o, i) => {
      const got = forest.predict(wdbc, o);
      assert.deepEqual(got.treesUsed, fresh[i].treesUsed, JSON.stringify(o));
      assert.deepEqual(got.confidence, fresh[i].confidence, JSON.stringify(o));
      assert.equal(got.trees, fresh[i].trees);
    });
  }
  // The option sets really differ in what they do: otherwise the check above shows nothing.
  assert.notDeepEqual(fresh[0].treesUsed, fresh[1].treesUsed);
  assert.notDeepEqual(fresh[0].treesUsed, fresh[2].treesUsed);
  forest.dispose();
});

test('halting calls on a disposed forest throw; dispose frees the cached tables', () => {
  const forest = uf.Forest.fromBytes(irisForest.toBytes());
  forest.predict(iris, { rule: 'siba' });
  forest.dispose();
  assert.throws(() => forest.predict(iris, { rule: 'siba' }), /disposed/);
  assert.throws(() => forest.trace(iris, 0, { rule: 'siba' }), /disposed/);
  assert.throws(() => forest.haltingTable({ rule: 'siba' }), /disposed/);
  assert.throws(() => forest.expectedCost({ rule: 'siba' }), /disposed/);
  assert.throws(() => forest.prior('siba'), /disposed/);
  assert.throws(() => forest.trainLabels(), /disposed/);
});

test("tallyAnswers answers each tally as the forest's own table of those options does", () => {
  const options = { rule: 'hyper', alpha: 0.95, trees: 31 };
  const table = irisForest.haltingTable(options);
  const rows = [[10, 0, 0], [4, 3, 1], [0, 0, 31], [12, 12, 7], [0, 0, 0]];
  const tallies = Int32Array.from(rows.flat());
  const halts = irisForest.tallyAnswers('halts', tallies, options);
  const confidence = irisForest.tallyAnswers('confidence', tallies, options);
  const leader = irisForest.tallyAnswers('leader', tallies, options);
  assert.ok(halts instanceof Uint8Array && confidence instanceof Float64Array && leader instanceof Int32Array);
  rows.forEach((t, i) => {
    assert.equal(halts[i], table.halts(t) ? 1 : 0, `halts ${t}`);
    assert.equal(confidence[i], table.confidence(t), `confidence ${t}`);
    assert.equal(leader[i], table.leader(t), `leader ${t}`);
  });
  table.dispose();
  assert.throws(() => irisForest.tallyAnswers('ask', tallies, options), RangeError);
  // A question that is not a string, even one with no way to become a string, is a RangeError too.
  assert.throws(() => irisForest.tallyAnswers(Object.create(null), tallies, options), RangeError);
  assert.throws(() => irisForest.tallyAnswers({ toString: () => 'halts' }, tallies, options), RangeError);
  assert.throws(() => irisForest.tallyAnswers('halts', [1, 2, 3], options), TypeError);
  assert.throws(() => irisForest.tallyAnswers('halts', Int32Array.from([1, 2]), options), RangeError);
  assert.throws(() => irisForest.tallyAnswers('halts', Int32Array.from([20, 20, 0]), options), RangeError);
});
