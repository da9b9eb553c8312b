// A list option copied from a CRLF file's header (--features "$(head -1 data.csv)") keeps no '\r':
// the model's last feature is named as in the file, and prediction on that file finds every column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli_binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-cli-crlf-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

test('--features and --classes ending in a CRLF line ending import the same names as without it', () => {
  const crlf = join(tmp, 'iris-crlf.csv');
  writeFileSync(crlf, readFileSync(join(root, 'datasets', 'iris.csv'), 'utf8').replace(/\r?\n/g, '\r\n'));
  const header = readFileSync(crlf, 'utf8').split('\n')[0];  // what a shell's "$(head -1 ...)" keeps
  const features = header.split(',').slice(0, 4).join(',') + '\r';
  const model = join(tmp, 'iris.urnf');
  const out = spawnSync(cli, ['import', '--onnx', join(root, 'tests', 'fixtures', 'onnx', 'sk_rf_iris_nozipmap.onnx'),
    '--features', features, '--classes', 'setosa,versicolor,virginica\r\n', '--out', model, '--json'], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stdout + out.stderr);
  const doc = JSON.parse(out.stdout);
  assert.deepEqual(doc.feature_names, ['sepal_length_(cm)', 'sepal_width_(cm)', 'petal_length_(cm)', 'petal_width_(cm)']);
  assert.deepEqual(doc.classes, ['setosa', 'versicolor', 'virginica']);
  const predicted = spawnSync(cli, ['predict', '--model', model, '--data', crlf, '--json'], { encoding: 'utf8' });
  assert.equal(predicted.status, 0, predicted.stdout + predicted.stderr);
  assert.equal(JSON.parse(predicted.stdout).labels.length, 150);
});

test('a list with an empty item is still refused', () => {
  const out = spawnSync(cli, ['import', '--onnx', join(root, 'tests', 'fixtures', 'onnx', 'sk_rf_iris_nozipmap.onnx'),
    '--features', 'a,,b\r', '--out', join(tmp, 'x.urnf'), '--json'], { encoding: 'utf8' });
  assert.equal(out.status, 1);
  assert.equal(JSON.parse(out.stdout).error.code, 'InvalidArgument');
});
