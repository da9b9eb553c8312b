// The front ends take their limits from the core (DatasetLimits, OrderingOptions::kMaxBackfitPasses,
// kMaxCostSamples, TrainOptions::kMaxTrees, HaltingTableOptions::kMaxClasses): the last value in is
// accepted, the next refused, and the JS API and the native CLI say the same bound.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../dist/index.js';
import { datasetsDir, readDataset } from './helpers.mjs';

const uf = await init();
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'urnforest-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const irisPath = fileURLToPath(new URL('iris.csv', datasetsDir));

function native(...args) {
  const run = spawnSync(cli, [...args, '--json'], { encoding: 'utf8' });
  return { status: run.status, doc: JSON.parse(run.stdout) };
}
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

test('Dataset.fromArrays bounds rows, cols and class indices by the core\'s DatasetLimits', () => {
  // [option, the core's largest value]
  for (const [option, max] of [['rows', 2 ** 26], ['cols', 65536]]) {
    const shape = { rows: 1, cols: 1, [option]: max + 1 };
    const e = thrown(() => uf.Dataset.fromArrays(new Float32Array(1), shape));
    assert.ok(e instanceof RangeError, String(e));
    assert.equal(e.message, `${option} must be in [1, ${max}], got ${max + 1}`);
    const matrix = thrown(() => uf.Dataset.fromArrays(new Float64Array(1), shape));
    assert.equal(matrix.message, e.message);
    // The largest value passes the bound and fails on the shape instead.
    const atMax = thrown(() => uf.Dataset.fromArrays(new Float32Array(1), { rows: 1, cols: 1, [option]: max }));
    assert.match(atMax.message, /x\.length \(1\) must equal rows \* cols/);
  }
  const labels = (index) => ({ rows: 1, cols: 1, labels: Int32Array.of(index) });
  const e = thrown(() => uf.Dataset.fromArrays(new Float32Array(1), labels(4096)));
  assert.ok(e instanceof RangeError, String(e));
  assert.equal(e.message, 'labels[0] = 4096 is not a class index (-1 or 0..4095)');
  const d = uf.Dataset.fromArrays(new Float32Array(1), labels(4095));
  assert.equal(d.labels()[0], 4095);
  d.dispose();
});

test('ordering back-fitting passes are bounded by the core\'s kMaxBackfitPasses in JS and the CLI', () => {
  const model = join(dir, 'iris.urnf');
  assert.equal(native('train', '--data', irisPath, '--trees', '5', '--out', model).status, 0);
  const iris = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(iris, { trees: 5 });
  assert.equal(forest.order(iris, { ordering: 'reduce-error', backfit: 100 }).length, 5);
  const e = thrown(() => forest.order(iris, { ordering: 'reduce-error', backfit: 101 }));
  assert.ok(e instanceof RangeError, String(e));
  assert.equal(e.message, 'backfit must be in [0, 100], got 101');
  const { status, doc } = native('prune', '--model', model, '--data', irisPath, '--ordering', 'reduce-error',
    '--backfit', '101', '--out', join(dir, 'p.urnf'));
  assert.notEqual(status, 0);
  assert.equal(doc.error.message, 'option --backfit must be in [0, 100], got 101');
  forest.dispose();
  iris.dispose();
});

test('expected --samples, --trees, --classes and --final counts are bounded by the core\'s constants', () => {
  const cases = [
    [['--trees', '11', '--samples', '100000001'], 'option --samples must be in [1, 100000000], got 100000001'],
    [['--trees', '100001'], 'option --trees must be in [1, 100000], got 100001'],
    [['--trees', '11', '--classes', '4097'], 'option --classes must be in [2, 4096], got 4097'],
    [['--trees', '11', '--final', '5,100001'], "option --final: '100001' is not a count"],
  ];
  for (const [args, message] of cases) {
    const { status, doc } = native('expected', '--rule', 'siba', ...args);
    assert.notEqual(status, 0, args.join(' '));
    assert.equal(doc.error.message, message);
  }
  const ok = native('expected', '--rule', 'siba', '--trees', '11', '--classes', '2', '--final', '6,5', '--samples', '10');
  assert.equal(ok.status, 0);
  assert.equal(ok.doc.monte_carlo_samples, 10);
});
