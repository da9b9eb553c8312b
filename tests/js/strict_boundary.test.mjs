// The JS boundary is strict and its codes are specific: a string option is a string, an options object is a
// plain object, names are distinct, a model's names are UTF-8, an empty or unlabeled data set says so with
// the core's code, an object no factory made says so, and the worker reads the CSV bytes fromCSV reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { init, UrnforestError } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const irisText = readDataset('iris');
const iris = uf.Dataset.fromCSV(irisText);
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));

const isCode = (code, pattern) => (e) => {
  assert.ok(e instanceof UrnforestError, `expected UrnforestError ${code}, got ${e}`);
  assert.equal(e.code, code, e.message);
  if (pattern) assert.match(e.message, pattern);
  return true;
};

test('a string option is a string: an array or an object whose toString names a value is refused', () => {
  const disguised = { toString: () => 'bagging', valueOf: () => 'bagging' };
  assert.throws(() => uf.trainForest(iris, { ensemble: ['rf'], trees: 3 }), RangeError);
  assert.throws(() => uf.trainForest(iris, { ensemble: disguised, trees: 3 }), RangeError);
  assert.throws(() => uf.trainForest(iris, { mtryRule: ['sqrt'], trees: 3 }), RangeError);
  assert.throws(() => uf.Dataset.fromCSV(irisText, { target: ['class'] }), TypeError);
  assert.throws(() => uf.Dataset.fromCSV(irisText, { classOrder: ['firstSeen'] }), RangeError);
  assert.throws(() => uf.Dataset.fromCSV(irisText, { classOrder: { toString: () => 'firstSeen' } }), RangeError);
  assert.throws(() => uf.haltingTable({ rule: { toString: () => 'siba' } }), TypeError);
  const forest = uf.trainForest(iris, { trees: 3 });
  assert.throws(() => forest.predict(iris, { rule: ['siba'] }), TypeError);
  assert.throws(() => forest.predict(iris, { rule: 'siba', order: { toString: () => 'random' } }), TypeError);
  forest.dispose();
});

test('options must be a plain object: a Map, a class instance or a Date is refused, not read as {}', () => {
  class Options { constructor() { this.trees = 3; } }
  for (const options of [new Map([['trees', 0]]), new Options(), new Date(0), new Set(), /x/]) {
    assert.throws(() => uf.trainForest(iris, options), (e) => e instanceof TypeError && /plain object/.test(e.message),
      `trainForest(${options.constructor.name})`);
    assert.throws(() => uf.Dataset.fromCSV(irisText, options), TypeError);
    assert.throws(() => uf.haltingTable(options), TypeError);
  }
  assert.throws(() => uf.Dataset.fromArrays(new Float32Array(4), new Map([['rows', 2], ['cols', 2]])), TypeError);
  // Object.create(null) and object literals are plain objects.
  const bare = Object.assign(Object.create(null), { trees: 3, seed: 2 });
  uf.trainForest(iris, bare).dispose();
});

test('fromArrays refuses duplicate class names and duplicate feature names, naming the repeat', () => {
  const x = new Float32Array([1, 2, 3, 4]);
  assert.throws(() => uf.Dataset.fromArrays(x, { rows: 2, cols: 2, labels: new Int32Array([0, 1]), classNames: ['a', 'a'] }),
    (e) => e instanceof RangeError && /classNames\[1\] = "a" repeats/.test(e.message));
  assert.throws(() => uf.Dataset.fromArrays(x, { rows: 2, cols: 2, labels: ['a', 'b'], classNames: ['a', 'b', 'a'] }), RangeError);
  assert.throws(() => uf.Dataset.fromArrays(x, { rows: 2, cols: 2, featureNames: ['f', 'f'] }),
    (e) => e instanceof RangeError && /featureNames\[1\]/.test(e.message));
  uf.Dataset.fromArrays(x, { rows: 2, cols: 2, featureNames: ['f', 'g'], labels: ['a', 'b'], classNames: ['a', 'b'] }).dispose();
});

// A model of `csv` whose class name `name` has its third byte replaced by 0xFF, CRC recomputed.
function modelWithBadName(csv, name) {
  const data = uf.Dataset.fromCSV(csv);
  const forest = uf.trainForest(data, { trees: 3, seed: 1 });
  const bytes = forest.toBytes();
  forest.dispose();
  data.dispose();
  const needle = new TextEncoder().encode(name);
  let at = -1;
  for (let i = 20; i + needle.length <= bytes.length && at < 0; i++) {
    if (needle.every((b, k) => bytes[i + k] === b)) at = i;
  }
  assert.ok(at > 0);
  bytes[at + 2] = 0xff;
  new DataView(bytes.buffer).setUint32(16, crc32(bytes.subarray(20)), true);
  return bytes;
}

test('a model (CRC recomputed) with a class name that is not UTF-8 is CorruptModel in JS and in the CLI, whose JSON stays valid', () => {
  const bytes = modelWithBadName('a,class\n1,klasse\n2,other\n3,klasse\n4,other\n', 'klasse');
  assert.throws(() => uf.Forest.fromBytes(bytes), isCode('CorruptModel', /not UTF-8/));
  const dir = mkdtempSync(join(tmpdir(), 'urnforest-utf8-'));
  try {
    const file = join(dir, 'bad.urnf');
    writeFileSync(file, bytes);
    const out = spawnSync(cli, ['info', '--model', file, '--json'], { encoding: 'utf8' });
    assert.notEqual(out.status, 0);
    const doc = JSON.parse(out.stdout.trim());
    assert.equal(doc.error.code, 'CorruptModel', out.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an empty subset says it is empty; unlabeled data is MissingLabel for training, ordering and experiments', () => {
  const empty = iris.subset([]);
  assert.equal(empty.numRows, 0);
  assert.throws(() => uf.trainForest(empty, { trees: 3 }), isCode('InvalidArgument', /empty \(0 rows\)/));
  assert.throws(() => uf.runExperiment({ data: empty, trees: 3 }), isCode('InvalidArgument', /empty \(0 rows\)/));
  const unlabeled = uf.Dataset.fromCSV(irisText, { target: null });
  assert.throws(() => uf.trainForest(unlabeled, { trees: 3 }), isCode('MissingLabel'));
  assert.throws(() => uf.trainForest(unlabeled, { trees: 3, ensemble: 'voteboost', voteboost: { a: 'cv' } }), isCode('MissingLabel'));
  assert.throws(() => uf.trainForest(unlabeled, { trees: 3, ensemble: 'adaboost' }), isCode('MissingLabel'));
  assert.throws(() => uf.runExperiment({ data: unlabeled, trees: 3 }), isCode('MissingLabel'));
  const forest = uf.trainForest(iris, { trees: 3 });
  assert.throws(() => forest.order(unlabeled), isCode('MissingLabel'));
  assert.throws(() => forest.order(empty), isCode('InvalidArgument', /empty \(0 rows\)/));
  for (const d of [forest, unlabeled, empty]) d.dispose();
});

test('an object no factory made (Object.create(X.prototype)) is a TypeError saying so, not ModuleReset', () => {
  const fakes = { Dataset: Object.create(uf.Dataset.prototype), Forest: Object.create(uf.Forest.prototype),
    HaltingTable: Object.create(uf.HaltingTable.prototype) };
  const notMade = (kind) => (e) => e instanceof TypeError && e.message.includes(`this ${kind} was not created by urnforest`);
  assert.throws(() => fakes.Dataset.numRows, notMade('Dataset'));
  assert.throws(() => fakes.Dataset.subset([0]), notMade('Dataset'));
  assert.throws(() => fakes.Dataset.dispose(), notMade('Dataset'));
  assert.throws(() => uf.trainForest(fakes.Dataset), notMade('Dataset'));
  assert.throws(() => fakes.Forest.predict(iris), notMade('Forest'));
  assert.throws(() => fakes.Forest.dispose(), notMade('Forest'));
  assert.throws(() => fakes.Forest.disposed, notMade('Forest'));
  assert.throws(() => fakes.HaltingTable.halts([1, 0]), notMade('HaltingTable'));
});

test('Dataset.fromCSV and the worker read the same CSV bytes: a string, a Uint8Array or an ArrayBuffer', async () => {
  const small = 'a,b,class\n1,5,x\n2,6,x\n3,7,y\n4,8,y\n5,1,x\n6,2,y\n';
  const bytes = new TextEncoder().encode(small);
  const fromBuffer = uf.Dataset.fromCSV(bytes.slice().buffer);
  assert.equal(fromBuffer.numRows, 6);
  const local = uf.trainForest(fromBuffer, { trees: 5, seed: 1 });
  const worker = new UrnforestWorker();
  try {
    for (const csv of [small, bytes, bytes.slice().buffer]) {
      const { bytes: model } = await worker.train({ csv }, { trees: 5, seed: 1 });
      assert.deepEqual(model, local.toBytes(), `${csv.constructor.name} trains the same model`);
    }
    await assert.rejects(worker.train({ csv: 12 }, {}), TypeError);
  } finally {
    worker.terminate();
    local.dispose();
    fromBuffer.dispose();
  }
});

test("a worker job's onProgress that throws rejects that job with the error (no uncaught exception); the worker stays usable", async () => {
  const worker = new UrnforestWorker();
  try {
    const thrown = new RangeError('stop here');
    await assert.rejects(worker.train({ csv: irisText }, { trees: 51, seed: 1 }, { onProgress: () => { throw thrown; } }),
      (e) => e === thrown);
    const { numTrees } = await worker.train({ csv: irisText }, { trees: 5, seed: 1 });
    assert.equal(numTrees, 5);
  } finally {
    worker.terminate();
  }
});
