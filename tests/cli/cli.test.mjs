// The native CLI's contract (DESIGN contract 2): every command prints exactly one JSON document with
// --json, errors included. Runs build/urnforest (built by `npm test` before this suite).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, cliKind } from './cli_binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const datasets = join(root, 'datasets');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function run(...args) {
  const out = spawnSync(cli, [...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const lines = out.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `exactly one JSON line on stdout, got: ${out.stdout}`);
  return { status: out.status, doc: JSON.parse(lines[0]), stderr: out.stderr };
}

const model = join(tmp, 'wdbc.urnf');

test('train prints the contract fields and writes a model', () => {
  const { status, doc } = run('train', '--data', join(datasets, 'wdbc.csv'), '--trees', '51',
    '--seed', '3', '--out', model);
  assert.equal(status, 0);
  assert.equal(doc.trees, 51);
  assert.deepEqual(doc.classes, ['benign', 'malignant']);
  assert.equal(doc.features, 30);
  assert.equal(doc.rows, 569);
  assert.ok(doc.oob_error > 0 && doc.oob_error < 0.1, `oob_error ${doc.oob_error}`);
  assert.ok(doc.train_ms >= 0);
  assert.equal(doc.mtry, 5);
});

test('predict gives class names and accuracy when the file has the target', () => {
  const { status, doc } = run('predict', '--model', model, '--data', join(datasets, 'wdbc.csv'));
  assert.equal(status, 0);
  assert.equal(doc.labels.length, 569);
  assert.ok(doc.labels.every((l) => l === 'benign' || l === 'malignant'));
  assert.ok(doc.accuracy > 0.98);
});

test('predict with alpha1 halts early yet always equals the full vote', () => {
  const full = run('predict', '--model', model, '--data', join(datasets, 'wdbc.csv')).doc;
  const { doc } = run('predict', '--model', model, '--data', join(datasets, 'wdbc.csv'),
    '--rule', 'alpha1', '--compare');
  assert.deepEqual(doc.labels, full.labels);
  assert.equal(doc.disagreement, 0);
  assert.ok(doc.mean_trees < 51);
  assert.equal(doc.trees_used.length, 569);
});

test('predict with hyper queries far fewer trees than the forest has', () => {
  const { doc } = run('predict', '--model', model, '--data', join(datasets, 'wdbc.csv'),
    '--rule', 'hyper', '--alpha', '0.99', '--compare');
  assert.ok(doc.mean_trees < 15, `mean trees ${doc.mean_trees}`);
  assert.ok(doc.disagreement <= 0.02);
});

test('a halted predict without --compare skips the full vote: no votes, no disagreement, same answers', () => {
  const args = ['predict', '--model', model, '--data', join(datasets, 'wdbc.csv'), '--rule', 'hyper', '--alpha', '0.99'];
  const fast = run(...args).doc;
  const compared = run(...args, '--compare').doc;
  assert.equal(fast.disagreement, undefined);
  assert.equal(fast.votes, undefined);
  assert.deepEqual(fast.labels, compared.labels);
  assert.deepEqual(fast.trees_used, compared.trees_used);
  assert.equal(compared.votes.length, 569 * 2);
  assert.equal(fast.table_source, 'built');
  assert.ok(fast.table_ms >= 0 && fast.table_ms <= fast.halted_ms);
  const { status, doc } = run('predict', '--model', model, '--data', join(datasets, 'wdbc.csv'), '--compare');
  assert.equal(status, 1);
  assert.equal(doc.error.code, 'InvalidArgument');
  assert.match(doc.error.message, /compare needs a rule/);
});

test('info describes a saved model', () => {
  const { status, doc } = run('info', '--model', model);
  assert.equal(status, 0);
  assert.equal(doc.trees, 51);
  assert.equal(doc.feature_names.length, 30);
  assert.equal(doc.target, 'class');
});

test('table reproduces the SIBA thresholds for T = 101, alpha = 0.99', () => {
  const { doc } = run('table', '--trees', '101', '--alpha', '0.99', '--classes', '2', '--rule', 'siba');
  assert.deepEqual(doc.min_majority, [6, 8, 10, 12, 13, 15, 16, 18, 19, 20, 21, 23, 24, 25, 26, 27, 28,
    29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 40, 41, 42, 43, 44, 44, 45, 46, 46, 47, 48, 48, 49,
    49, 50, 50, 51, 51, 51, 51, 51, 51]);
});

test('tables at any size: 10,001 trees over 3 classes and 26 classes are decided on demand', () => {
  const three = run('table', '--trees', '10001', '--alpha', '0.99', '--classes', '3', '--rule', 'siba').doc;
  assert.equal(three.layout, 'onDemand');
  assert.ok(three.memory_bytes < 1e6, `memory ${three.memory_bytes}`);
  assert.equal(three.tables, undefined);
  const votes = ['60', ...new Array(25).fill('0')].join(',');
  const many = run('pstar', '--trees', '10001', '--classes', '26', '--rule', 'siba', '--votes', votes).doc;
  assert.equal(many.halt, true);
  assert.equal(many.leader, 0);
  assert.ok(many.pstar >= 0.99 && many.pstar <= 1);
  const few = run('pstar', '--trees', '10001', '--classes', '26', '--rule', 'siba', '--votes', '3,' + new Array(25).fill('0').join(',')).doc;
  assert.equal(few.halt, false);
});

test('input beyond 1 GiB, or beyond the memory there is, is an error document, not an abort', () => {
  const huge = join(tmp, 'huge.urnf');
  writeFileSync(huge, '');
  truncateSync(huge, 2 ** 31);  // sparse: refused from its size, nothing read
  const big = run('info', '--model', huge);
  assert.equal(big.status, 1);
  assert.equal(big.doc.error.code, 'LimitExceeded');
  assert.match(big.doc.error.message, /1024 MiB/);
  rmSync(huge);
  // An endless device under a 300 MB address-space limit: the read runs out of memory. Node reserves
  // gigabytes of address space for any wasm memory (and does not start at all under 300 MB), so the
  // Node CLI gets 1 GB: its module cannot get its memory, and says so in the same error document.
  const limit = cliKind === 'node' ? 1000000 : 300000;
  const out = spawnSync('bash', ['-c', `ulimit -v ${limit}; exec "${cli}" info --model /dev/zero --json`],
    { encoding: 'utf8' });
  assert.equal(out.status, 1);
  const doc = JSON.parse(out.stdout.trim());
  assert.equal(doc.error.code, 'OutOfMemory');
});

test('numbers are written plainly: a space, a plus sign, a leading zero or hexadecimal is an error', () => {
  for (const trees of [' 11', '+11', '011', '1e1', '11 ']) {
    const { status, doc } = run('table', '--trees', trees, '--classes', '2', '--rule', 'siba', '--alpha', '0.99');
    assert.equal(status, 1, trees);
    assert.equal(doc.error.code, 'InvalidArgument');
    assert.ok(doc.error.message.includes('--trees'), doc.error.message);
  }
  for (const alpha of ['0x1p-1', '+0.5', ' 0.5', 'inf', 'nan', '.']) {
    const { status, doc } = run('table', '--trees', '11', '--classes', '2', '--rule', 'siba', '--alpha', alpha);
    assert.equal(status, 1, alpha);
    assert.equal(doc.error.code, 'InvalidArgument');
  }
  for (const alpha of ['0.99', '.99', '9.9e-1', '1']) {
    assert.equal(run('table', '--trees', '11', '--classes', '2', '--rule', 'siba', '--alpha', alpha).status, 0, alpha);
  }
  const votes = run('pstar', '--trees', '101', '--classes', '2', '--rule', 'siba', '--votes', '05,0');
  assert.equal(votes.doc.error.code, 'InvalidArgument');
});

test('pstar of a 5-0 and a 6-0 start under SIBA', () => {
  const five = run('pstar', '--trees', '101', '--classes', '2', '--rule', 'siba', '--votes', '5,0').doc;
  assert.ok(Math.abs(five.pstar - 0.986625) < 1e-6);
  assert.equal(five.halt, false);
  const six = run('pstar', '--trees', '101', '--classes', '2', '--rule', 'siba', '--votes', '6,0').doc;
  assert.ok(Math.abs(six.pstar - 0.993731) < 1e-6);
  assert.equal(six.halt, true);
  assert.equal(six.leader, 0);
});

test('expected trees of SIBA for a 90-11 final tally is 8.70', () => {
  const { doc } = run('expected', '--trees', '101', '--alpha', '0.99', '--rule', 'siba',
    '--final', '90,11');
  assert.equal(doc.expected_trees.toFixed(2), '8.70');
});

test('a ragged CSV row is an error document with code, line and column', () => {
  const bad = join(tmp, 'ragged.csv');
  writeFileSync(bad, 'a,b,class\n1,2,x\n3,4\n');
  const { status, doc } = run('train', '--data', bad, '--out', join(tmp, 'never.urnf'));
  assert.notEqual(status, 0);
  assert.equal(doc.error.code, 'CsvRaggedRow');
  assert.equal(doc.error.line, 3);
  assert.equal(doc.error.column, 3);
});

test('a truncated model file is CorruptModel, a foreign file too', () => {
  const truncated = join(tmp, 'truncated.urnf');
  const bytes = readFileSync(model);
  writeFileSync(truncated, bytes.subarray(0, bytes.length >> 1));
  let { status, doc } = run('info', '--model', truncated);
  assert.notEqual(status, 0);
  assert.equal(doc.error.code, 'CorruptModel');
  ({ status, doc } = run('info', '--model', join(datasets, 'iris.csv')));
  assert.notEqual(status, 0);
  assert.equal(doc.error.code, 'CorruptModel');
});

test('bad options name the option and never coerce', () => {
  for (const [args, fragment] of [
    [['train', '--data', 'x.csv', '--out', 'm', '--trees', '10x'], '--trees'],
    [['train', '--data', 'x.csv', '--out', 'm', '--trees', '0'], '--trees'],
    [['train', '--data', 'x.csv', '--out', 'm', '--ensemble', 'boost'], '--ensemble'],
    [['predict', '--model', model, '--data', 'x.csv', '--bogus', '1'], '--bogus'],
    [['pstar', '--rule', 'siba', '--votes', '1,2,3'], '--votes'],
    [['predict', '--model', model, '--data', join(datasets, 'wdbc.csv'), '--rule', 'hyper',
      '--alpha', '1.5'], '--alpha'],
  ]) {
    const { status, doc } = run(...args);
    assert.notEqual(status, 0, args.join(' '));
    assert.ok(doc.error.message.includes(fragment), `${doc.error.message} names ${fragment}`);
  }
});

test('a missing file is IoError naming the path', () => {
  const { status, doc } = run('train', '--data', join(tmp, 'nope.csv'), '--out', join(tmp, 'm'));
  assert.notEqual(status, 0);
  assert.equal(doc.error.code, 'IoError');
  assert.ok(doc.error.message.includes('nope.csv'));
});

test('predicting a file without a model column is ColumnMismatch', () => {
  const other = join(tmp, 'other.csv');
  writeFileSync(other, 'x,y,class\n1,2,benign\n');
  const { status, doc } = run('predict', '--model', model, '--data', other);
  assert.notEqual(status, 0);
  assert.equal(doc.error.code, 'ColumnMismatch');
});

test('prune keeps the first K trees of an ordering and writes a smaller model', () => {
  const bagged = join(tmp, 'sonar-bag.urnf');
  const pruned = join(tmp, 'sonar-ob21.urnf');
  assert.equal(run('train', '--data', join(datasets, 'sonar.csv'), '--ensemble', 'bagging',
    '--trees', '101', '--out', bagged).status, 0);
  const { status, doc } = run('prune', '--model', bagged, '--data', join(datasets, 'sonar.csv'),
    '--ordering', 'boosting', '--out', pruned);
  assert.equal(status, 0);
  assert.equal(doc.ordering, 'boosting');
  assert.equal(doc.kept, 21);
  assert.equal(doc.trees, 101);
  assert.deepEqual([...doc.order].sort((a, b) => a - b), [...Array(101).keys()]);
  assert.equal(doc.error_curve.length, 101);
  assert.ok(doc.bytes_after < doc.bytes_before / 3, `${doc.bytes_after} vs ${doc.bytes_before}`);
  assert.equal(doc.oob_recomputed, true);
  const info = run('info', '--model', pruned).doc;
  assert.equal(info.trees, 21);
  const missing = run('prune', '--model', bagged, '--ordering', 'boosting', '--out', pruned);
  assert.equal(missing.status, 1);
  assert.equal(missing.doc.error.code, 'InvalidArgument');
  const bad = run('prune', '--model', bagged, '--data', join(datasets, 'sonar.csv'),
    '--ordering', 'random', '--out', pruned);
  assert.equal(bad.doc.error.code, 'InvalidArgument');
});

test('prune warns when unpruned trees are ordered on their own training data and orders on out-of-bag votes with --on oob', () => {
  const bagged = join(tmp, 'sonar-bag-oob.urnf');
  const pruned = join(tmp, 'sonar-bag-oob21.urnf');
  const sonar = join(datasets, 'sonar.csv');
  assert.equal(run('train', '--data', sonar, '--ensemble', 'bagging', '--trees', '31', '--out', bagged).status, 0);
  const onData = run('prune', '--model', bagged, '--data', sonar, '--ordering', 'boosting', '--out', pruned).doc;
  assert.equal(onData.on, 'data');
  assert.equal(onData.warnings.length, 1);
  assert.match(onData.warnings[0], /in-bag/);
  const onOob = run('prune', '--model', bagged, '--data', sonar, '--on', 'oob', '--out', pruned).doc;
  assert.equal(onOob.on, 'oob');
  assert.deepEqual(onOob.warnings, []);
  assert.deepEqual([...onOob.order].sort((a, b) => a - b), [...Array(31).keys()]);
  const kappa = run('prune', '--model', bagged, '--data', sonar, '--ordering', 'kappa', '--on', 'oob', '--out', pruned);
  assert.equal(kappa.doc.error.code, 'InvalidArgument');
  const bogus = run('prune', '--model', bagged, '--data', sonar, '--on', 'bag', '--out', pruned);
  assert.equal(bogus.doc.error.code, 'InvalidArgument');
  const cvModel = join(tmp, 'sonar-bagcv.urnf');
  assert.equal(run('train', '--data', sonar, '--ensemble', 'bagging', '--trees', '5', '--tree-pruning', 'cv', '--out', cvModel).status, 0);
  assert.deepEqual(run('prune', '--model', cvModel, '--data', sonar, '--out', pruned).doc.warnings, []);
});

test('train --ensemble adaboost stores tree weights and predicts with them', () => {
  const boosted = join(tmp, 'sonar-boost.urnf');
  const { status, doc } = run('train', '--data', join(datasets, 'sonar.csv'), '--ensemble',
    'adaboost', '--boosting', 'reweight', '--max-depth', '2', '--trees', '21', '--out', boosted);
  assert.equal(status, 0);
  assert.equal(doc.ensemble, 'adaboost');
  assert.equal(doc.boosting, 'reweight');
  assert.equal(doc.tree_weights.length, 21);
  assert.ok(doc.tree_weights.every((a) => a > 0));
  const predicted = run('predict', '--model', boosted, '--data', join(datasets, 'sonar.csv')).doc;
  assert.ok(predicted.accuracy > 0.9, `accuracy ${predicted.accuracy}`);
  const wrong = run('train', '--data', join(datasets, 'sonar.csv'), '--boosting', 'reweight',
    '--out', boosted);
  assert.equal(wrong.doc.error.code, 'InvalidArgument');
});

test('table --store with rule alpha1 stores the lead rule and reports it (it ignores alpha)', () => {
  const out = join(tmp, 'wdbc-alpha1.urnf');
  const stored = run('table', '--model', model, '--rule', 'alpha1', '--alpha', '0.99', '--store', '--out', out);
  assert.equal(stored.status, 0, stored.stderr);
  assert.equal(stored.doc.stored, true);
  assert.ok(stored.doc.table_bytes > 0);
  assert.equal(stored.doc.stored_tables, 1);
  const info = run('info', '--model', out).doc;
  assert.deepEqual(info.stored_tables.map((t) => t.rule), ['alpha1']);
});

test('train --store-tables stores halting tables that info lists and predict uses', () => {
  const stored = join(tmp, 'wdbc-tables.urnf');
  const plain = join(tmp, 'wdbc-plain.urnf');
  const data = join(datasets, 'wdbc.csv');
  const trained = run('train', '--data', data, '--trees', '51', '--seed', '3',
    '--store-tables', 'hyper:0.99,siba:0.99', '--out', stored);
  assert.equal(trained.status, 0);
  assert.deepEqual(trained.doc.stored_tables.map((t) => [t.rule, t.alpha, t.trees]),
    [['hyper', 0.99, 51], ['siba', 0.99, 51]]);
  run('train', '--data', data, '--trees', '51', '--seed', '3', '--out', plain);
  assert.ok(readFileSync(stored).length > readFileSync(plain).length);
  assert.deepEqual(readFileSync(plain), readFileSync(model));

  const info = run('info', '--model', stored).doc;
  assert.deepEqual(info.stored_tables.map((t) => [t.rule, t.alpha, t.trees]),
    [['hyper', 0.99, 51], ['siba', 0.99, 51]]);
  assert.ok(info.stored_tables.every((t) => t.bytes > 0));
  assert.deepEqual(run('info', '--model', plain).doc.stored_tables, []);

  const fromStore = run('predict', '--model', stored, '--data', data, '--rule', 'hyper', '--alpha', '0.99').doc;
  const built = run('predict', '--model', plain, '--data', data, '--rule', 'hyper', '--alpha', '0.99').doc;
  assert.equal(fromStore.table_source, 'stored');
  assert.equal(built.table_source, 'built');
  assert.deepEqual(fromStore.labels, built.labels);
  assert.deepEqual(fromStore.trees_used, built.trees_used);
  const other = run('predict', '--model', stored, '--data', data, '--rule', 'hyper', '--alpha', '0.95').doc;
  assert.equal(other.table_source, 'built');

  const bad = run('train', '--data', data, '--store-tables', 'hyper', '--out', stored);
  assert.equal(bad.doc.error.code, 'InvalidArgument');
});

test('table --store adds a table to an existing model without retraining', () => {
  const plain = join(tmp, 'wdbc-plain2.urnf');
  const added = join(tmp, 'wdbc-added.urnf');
  const data = join(datasets, 'wdbc.csv');
  run('train', '--data', data, '--trees', '51', '--seed', '3', '--out', plain);
  const { status, doc } = run('table', '--model', plain, '--rule', 'siba', '--alpha', '0.95',
    '--store', '--out', added);
  assert.equal(status, 0);
  assert.equal(doc.stored, true);
  assert.equal(doc.stored_tables, 1);
  assert.deepEqual(run('info', '--model', added).doc.stored_tables.map((t) => [t.rule, t.alpha]),
    [['siba', 0.95]]);
  const predicted = run('predict', '--model', added, '--data', data, '--rule', 'siba', '--alpha', '0.95').doc;
  assert.equal(predicted.table_source, 'stored');
  const noOut = run('table', '--model', plain, '--rule', 'siba', '--store');
  assert.equal(noOut.doc.error.code, 'InvalidArgument');
});

test('experiment --prune adds "pruned" beside "full" and measures the rules on the kept trees', () => {
  const { status, doc } = run('experiment', '--data', join(datasets, 'iris.csv'), '--trees', '21',
    '--folds', '2', '--repeats', '1', '--rules', 'alpha1,siba', '--prune', 'boosting', '--keep', '5',
    '--quiet');
  assert.equal(status, 0);
  assert.equal(doc.partitions, 2);
  assert.equal(doc.trees, 21);
  assert.equal(doc.pruned.size, 5);
  assert.equal(doc.pruned.ordering, 'boosting');
  assert.equal(typeof doc.pruned.error.mean, 'number');
  assert.equal(typeof doc.pruned.error.std, 'number');
  assert.equal(typeof doc.full.error.mean, 'number');
  assert.equal(doc.query_order, 'ordered');
  assert.equal(doc.rules.alpha1.disagreement.mean, 0);
  assert.equal(doc.rules.alpha1.error.mean, doc.pruned.error.mean);
  assert.ok(doc.rules.siba.trees.mean <= 5);
  assert.ok(doc.full.trees.mean > 5);
});

test('experiment --ensemble adaboost with --query-order random (IB-PERM)', () => {
  const { status, doc } = run('experiment', '--data', 'twonorm', '--train', '80', '--test', '60',
    '--repeats', '2', '--trees', '11', '--ensemble', 'adaboost', '--query-order', 'random',
    '--rules', 'alpha1,siba', '--quiet');
  assert.equal(status, 0);
  assert.equal(doc.ensemble, 'adaboost');
  assert.equal(doc.boosting, 'resample');
  assert.equal(doc.query_order, 'random');
  assert.equal(doc.pruned, undefined);
  assert.equal(doc.rules.alpha1.disagreement.mean, 0);
  assert.equal(doc.rules.alpha1.error.mean, doc.full.unweighted_error.mean);
});

test('experiment rejects bad pruning options by name', () => {
  for (const [args, name] of [
    [['--prune', 'nope'], 'nope'],
    [['--prune', 'early', '--keep', '22'], '--keep'],
    [['--keep', '3'], 'keep needs prune'],
    [['--query-order', 'sideways'], '--query-order'],
    [['--boosting', 'resample'], 'boosting needs ensemble adaboost'],
  ]) {
    const { status, doc } = run('experiment', '--data', 'twonorm', '--train', '20', '--test', '10',
      '--repeats', '1', '--trees', '21', ...args, '--quiet');
    assert.notEqual(status, 0);
    assert.equal(doc.error.code, 'InvalidArgument');
    assert.ok(doc.error.message.includes(name), doc.error.message);
  }
});

test('train --threads gives the same model bytes for 1, 2 and every core', () => {
  const paths = ['1', '2', '0'].map((n) => {
    const path = join(tmp, `threads${n}.urnf`);
    const { status } = run('train', '--data', join(datasets, 'soybean.csv'), '--trees', '31', '--threads', n, '--out', path);
    assert.equal(status, 0);
    return path;
  });
  const [one, ...rest] = paths.map((p) => readFileSync(p));
  for (const other of rest) assert.ok(one.equals(other));
  assert.equal(run('train', '--data', join(datasets, 'iris.csv'), '--threads', '-1', '--out', join(tmp, 'x.urnf')).doc.error.code, 'InvalidArgument');
});

test('predict --threads gives the same answer for 1, 2 and every core on a batch large enough to split', () => {
  // wdbc tiled to 39,830 rows: at least 16,384 rows a thread, so 2 threads split it in two.
  const [header, ...body] = readFileSync(join(datasets, 'wdbc.csv'), 'utf8').trim().split(/\r?\n/);
  const big = join(tmp, 'wdbc_tiled.csv');
  writeFileSync(big, [header, ...Array.from({ length: 70 }, () => body).flat()].join('\n') + '\n');
  const withoutTimes = (doc) => Object.fromEntries(Object.entries(doc).filter(([k]) => !k.endsWith('_ms')));
  for (const rule of [[], ['--rule', 'hyper', '--compare'], ['--rule', 'siba', '--order', 'random', '--seed', '4']]) {
    const [one, ...rest] = ['1', '2', '0'].map((n) => {
      const { status, doc } = run('predict', '--model', model, '--data', big, ...rule, '--threads', n);
      assert.equal(status, 0, JSON.stringify(doc.error));
      assert.equal(doc.rows, 39830);
      return withoutTimes(doc);
    });
    for (const other of rest) assert.deepEqual(other, one, `predict ${rule.join(' ')}`);
  }
  assert.equal(run('predict', '--model', model, '--data', big, '--threads', 'x').doc.error.code, 'InvalidArgument');
});

test('experiment refuses work beyond --max-work up front with LimitExceeded naming the estimate', () => {
  const { status, doc } = run('experiment', '--data', join(datasets, 'iris.csv'), '--trees', '11', '--max-work', '1000');
  assert.equal(status, 1);
  assert.equal(doc.error.code, 'LimitExceeded');
  assert.match(doc.error.message, /row-trees/);
});
