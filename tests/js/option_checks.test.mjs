// Training and experiment options are checked once, in the core (CheckTrainRequest,
// CheckExperimentOptions): the JS API and the native CLI refuse the same requests with the same code
// and message, and both front ends read their single-option bounds from the core.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, UrnforestError } from '../../dist/index.js';
import { datasetsDir, readDataset } from './helpers.mjs';

const uf = await init();
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'urnforest-options-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const irisPath = fileURLToPath(new URL('iris.csv', datasetsDir));

function native(args) {
  const run = spawnSync(cli, [...args, '--json'], { encoding: 'utf8' });
  return { status: run.status, doc: JSON.parse(run.stdout) };
}
// `args` after the `defaults` (flag, value pairs) that `args` does not give.
function withDefaults(defaults, args) {
  const out = [];
  for (let i = 0; i < defaults.length; i += 2) if (!args.includes(defaults[i])) out.push(defaults[i], defaults[i + 1]);
  return [...out, ...args];
}
const nativeTrain = (args) => native(['train', ...withDefaults(['--data', irisPath, '--trees', '3', '--out', join(dir, 'm.urnf')], args)]);
const nativeExperiment = (args) => native(['experiment', '--quiet',
  ...withDefaults(['--data', 'twonorm', '--train', '20', '--test', '10', '--repeats', '1', '--trees', '5'], args)]);

// The error `fn` throws (it must throw).
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail(`${fn} did not throw`);
}

function sameRefusal(jsCall, cliRun, what) {
  const e = thrown(jsCall);
  assert.ok(e instanceof UrnforestError, `${what}: JS threw ${e}`);
  const { status, doc } = cliRun;
  assert.notEqual(status, 0, what);
  assert.equal(e.code, doc.error.code, what);
  assert.equal(e.message, `${doc.error.code}: ${doc.error.message}`, what);
}

test('a training request the core refuses is refused with the same code and message by JS and the CLI', () => {
  const iris = uf.Dataset.fromCSV(readDataset('iris'));
  const train = (o) => () => uf.trainForest(iris, { trees: 3, ...o });
  const cases = [
    [{ boosting: 'resample' }, ['--boosting', 'resample'], /option boosting needs ensemble adaboost, not rf/],
    [{ voteboost: { a: 2 } }, ['--emphasis', '2'], /need ensemble voteboost, not rf/],
    [{ ensemble: 'voteboost', voteboost: { a: 'cv', b: 2 } }, ['--ensemble', 'voteboost', '--emphasis', 'cv', '--emphasis-b', '2'],
      /voteboost\.b cannot be combined with voteboost\.a = cv/],
    [{ ensemble: 'voteboost', voteboost: { cvTrees: 5 } }, ['--ensemble', 'voteboost', '--cv-trees', '5'],
      /voteboost\.cv_trees needs voteboost\.a = cv/],
    [{ ensemble: 'voteboost', voteboost: { a: 2, b: 3 } }, ['--ensemble', 'voteboost', '--emphasis', '2', '--emphasis-b', '3'],
      /voteboost\.b must equal a/],
  ];
  for (const [options, args, message] of cases) {
    const what = JSON.stringify(options);
    sameRefusal(train(options), nativeTrain(args), what);
    assert.match(thrown(train(options)).message, message, what);
  }
  iris.dispose();
});

test('an experiment the core refuses is refused with the same code and message by JS and the CLI', () => {
  const run = (o) => () => uf.runExperiment({ data: 'twonorm', train: 20, test: 10, repeats: 1, trees: 5, ...o });
  const cases = [
    [{ keep: 3 }, ['--keep', '3'], /option keep needs prune/],
    [{ boosting: 'reweight' }, ['--boosting', 'reweight'], /option boosting needs ensemble adaboost/],
    [{ ensemble: 'voteboost', voteboost: { cvTrees: 3 } }, ['--ensemble', 'voteboost', '--cv-trees', '3'], /cv_trees needs/],
    [{ mtry: 21 }, ['--mtry', '21'], /option mtry must be in 0\.\.20 \(the number of features\), got 21/],
    [{ maxWork: 10 }, ['--max-work', '10'], /row-trees/],
  ];
  for (const [options, args, message] of cases) {
    const what = JSON.stringify(options);
    sameRefusal(run(options), nativeExperiment(args), what);
    assert.match(thrown(run(options)).message, message, what);
  }
});

test('both front ends bound each option by the core\'s constant: the last value in is accepted, the next refused', () => {
  const iris = uf.Dataset.fromCSV(readDataset('iris'));
  // [JS option, CLI option, the core's largest value]
  const bounds = [['maxDepth', '--max-depth', 100000], ['minLeaf', '--min-leaf', 2 ** 26]];
  for (const [option, flag, max] of bounds) {
    uf.trainForest(iris, { trees: 1, [option]: max }).dispose();
    assert.equal(nativeTrain([flag, String(max)]).status, 0, flag);
    const e = thrown(() => uf.trainForest(iris, { trees: 1, [option]: max + 1 }));
    const { doc } = nativeTrain([flag, String(max + 1)]);
    assert.ok(e instanceof RangeError, `${option}: ${e}`);
    assert.equal(doc.error.code, 'InvalidArgument');
    const tail = `must be in [${option === 'maxDepth' ? 0 : 1}, ${max}], got ${max + 1}`;
    assert.equal(e.message, `${option} ${tail}`);
    assert.equal(doc.error.message, `option ${flag} ${tail}`);
  }
  for (const [option, flag, value] of [['repeats', '--repeats', 100001], ['samples', '--samples', 1e8 + 1]]) {
    const e = thrown(() => uf.runExperiment({ data: 'twonorm', [option]: value }));
    assert.ok(e instanceof RangeError && e.message.endsWith(`, got ${value}`), `${option}: ${e}`);
    const { doc } = nativeExperiment([flag, String(value)]);
    assert.equal(doc.error.code, 'InvalidArgument');
    assert.ok(doc.error.message.endsWith(`, got ${value}`), doc.error.message);
  }
  iris.dispose();
});

test('defaultKeep is the core\'s ⌈0.2 T⌉, the keep the CLI uses when --keep is not given', () => {
  assert.equal(uf.defaultKeep(101), 21);
  assert.equal(uf.defaultKeep(1), 1);
  assert.equal(uf.defaultKeep(10), 2);
  assert.throws(() => uf.defaultKeep(0), RangeError);
  assert.throws(() => uf.defaultKeep(2.5), TypeError);
  const { doc } = nativeExperiment(['--prune', 'boosting', '--trees', '21']);
  assert.equal(doc.pruned.size, uf.defaultKeep(21));
});

test('learner.grownToPurity is the core\'s GrownToPurity, counting vote-boosting\'s pruned and stump bases', () => {
  const sonar = uf.Dataset.fromCSV(readDataset('sonar'));
  const cases = [
    [{}, true],
    [{ maxDepth: 4 }, false],
    [{ minLeaf: 3 }, false],
    [{ treePruning: 'cv' }, false],
    [{ ensemble: 'voteboost', voteboost: { base: 'unpruned' } }, true],
    [{ ensemble: 'voteboost', voteboost: { base: 'pruned' } }, false],
    [{ ensemble: 'voteboost', voteboost: { base: 'stump' } }, false],
  ];
  for (const [options, pure] of cases) {
    const forest = uf.trainForest(sonar, { trees: 2, ...options });
    assert.equal(forest.learner.grownToPurity, pure, JSON.stringify(options));
    forest.dispose();
  }
  sonar.dispose();
});
