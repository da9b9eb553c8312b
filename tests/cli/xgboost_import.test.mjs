// `urnforest import --xgboost FILE.json` on models saved by XGBoost itself (tests/fixtures/xgboost):
// the CLI predicts xgboost's labels and probabilities, halts exactly with alpha1, and fails with one
// JSON error on models it cannot run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, ok, scratchDir } from './cli_json.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'tests', 'fixtures', 'xgboost');
const tmp = scratchDir('urnforest-xgboost-import-');

// The fixture's rows as a CSV with its columns in reverse order (the CLI matches them by name).
function csvOf(name, fx) {
  const csv = join(tmp, `${name}.csv`);
  const cols = [...fx.feature_names].reverse();
  const lines = [cols.join(',')];
  for (const row of fx.rows) lines.push(cols.map((c) => { const v = row[fx.feature_names.indexOf(c)]; return v === null ? '' : String(v); }).join(','));
  writeFileSync(csv, lines.join('\n') + '\n');
  return csv;
}

test('import --xgboost reads the model; predict gives xgboost\'s labels, probabilities within 1e-6 and the exact exit', () => {
  for (const name of ['wdbc_binary_missing', 'vehicle_softprob_missing', 'iris_softmax']) {
    const fx = JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8'));
    const model = join(tmp, `${name}.urnf`);
    const info = ok('import', '--xgboost', join(fixtures, fx.model_file), '--out', model);
    assert.equal(info.trees, fx.n_trees);
    assert.deepEqual(info.feature_names, fx.feature_names);
    assert.equal(info.kind, 'additive');
    assert.equal(info.source, 'xgboost 1.7.4');
    const csv = csvOf(name, fx);
    const p = ok('predict', '--model', model, '--data', csv, '--proba');
    assert.deepEqual(p.labels, fx.source.predict.map(String));
    p.probabilities.flat().forEach((v, i) => assert.ok(Math.abs(v - fx.source.predict_proba.flat()[i]) <= 1e-6, `${name} [${i}]`));
    const exact = ok('predict', '--model', model, '--data', csv, '--rule', 'alpha1', '--compare');
    assert.deepEqual(exact.labels, p.labels);
    assert.equal(exact.disagreement, 0);
    assert.ok(exact.mean_trees < fx.n_trees);
  }
});

test('import --xgboost --classes names the classes', () => {
  const info = ok('import', '--xgboost', join(fixtures, 'iris_softmax.model.json'), '--out', join(tmp, 'iris.urnf'),
    '--classes', 'setosa,versicolor,virginica');
  assert.deepEqual(info.classes, ['setosa', 'versicolor', 'virginica']);
});

test('models urnforest cannot import, and a missing or doubled source, are one JSON error with a stable code', () => {
  for (const [file, code, words] of [['bad_regression.model.json', 'UnsupportedModel', 'reg:squarederror'],
    ['bad_gblinear.model.json', 'UnsupportedModel', 'gblinear'], ['bad_categorical.model.json', 'UnsupportedModel', 'categorical']]) {
    const out = run('import', '--xgboost', join(fixtures, file), '--out', join(tmp, 'bad.urnf'));
    assert.equal(out.status, 1);
    assert.equal(out.json.error.code, code);
    assert.ok(out.json.error.message.includes(words), out.json.error.message);
  }
  const cut = join(tmp, 'cut.json');
  writeFileSync(cut, readFileSync(join(fixtures, 'iris_softmax.model.json')).subarray(0, 5000));
  assert.equal(run('import', '--xgboost', cut, '--out', join(tmp, 'bad.urnf')).json.error.code, 'CorruptModel');
  assert.equal(run('import', '--out', join(tmp, 'bad.urnf')).json.error.code, 'InvalidArgument');
  const both = run('import', '--xgboost', cut, '--onnx', cut, '--out', join(tmp, 'bad.urnf'));
  assert.match(both.json.error.message, /--onnx FILE.onnx or --xgboost FILE.json/);
});
