// The CLI's CSV format options (--delimiter, --decimal, --target-categorical) and the importance
// command. Runs build/urnforest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli_binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const iris = readFileSync(join(root, 'datasets', 'iris.csv'), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-csvopt-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function run(...args) {
  const out = spawnSync(cli, [...args, '--json'], { encoding: 'utf8' });
  return { status: out.status, doc: JSON.parse(out.stdout.trim()) };
}

test('train and predict read semicolon files with decimal commas like the comma file', () => {
  const plainModel = join(tmp, 'plain.urnf');
  const euModel = join(tmp, 'eu.urnf');
  const eu = join(tmp, 'iris_eu.csv');
  writeFileSync(eu, iris.replace(/,/g, ';').replace(/(\d)\.(\d)/g, '$1,$2'));
  assert.equal(run('train', '--data', join(root, 'datasets', 'iris.csv'), '--trees', '11', '--out', plainModel).status, 0);
  assert.equal(run('train', '--data', eu, '--delimiter', ';', '--decimal', ',', '--trees', '11', '--out', euModel).status, 0);
  assert.deepEqual(readFileSync(euModel), readFileSync(plainModel));
  const p = run('predict', '--model', euModel, '--data', eu, '--delimiter', 'auto', '--decimal', ',');
  assert.equal(p.status, 0);
  const bad = run('train', '--data', eu, '--delimiter', '|', '--out', euModel);
  assert.notEqual(bad.status, 0);
  assert.equal(bad.doc.error.code, 'InvalidArgument');
});

test('a numeric target with many values is NumericTarget unless --target-categorical', () => {
  const path = join(tmp, 'price.csv');
  let text = 'x,price\n';
  for (let i = 0; i < 80; i++) text += `${i},${(i * 1.37).toFixed(2)}\n`;
  writeFileSync(path, text);
  const refused = run('train', '--data', path, '--trees', '5', '--out', join(tmp, 'p.urnf'));
  assert.notEqual(refused.status, 0);
  assert.equal(refused.doc.error.code, 'NumericTarget');
  assert.equal(run('train', '--data', path, '--trees', '5', '--target-categorical', '--out', join(tmp, 'p.urnf')).status, 0);
});

test('importance ranks iris petal features first by both methods', () => {
  const model = join(tmp, 'iris.urnf');
  const data = join(root, 'datasets', 'iris.csv');
  assert.equal(run('train', '--data', data, '--trees', '51', '--seed', '2', '--out', model).status, 0);
  for (const method of ['impurity', 'permutation']) {
    const { status, doc } = run('importance', '--model', model, '--data', data, '--method', method);
    assert.equal(status, 0);
    assert.equal(doc.method, method);
    const top = [...doc.features].sort((a, b) => b.importance - a.importance).slice(0, 2).map((f) => f.name).sort();
    assert.deepEqual(top, ['petal_length_(cm)', 'petal_width_(cm)'], JSON.stringify(doc));
  }
});
