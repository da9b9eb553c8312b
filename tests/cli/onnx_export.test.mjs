// `urnforest export`: the ONNX file run in onnxruntime-web (wasm, one thread) labels every row as
// `urnforest predict` does, with probabilities = votes / T. Runs build/urnforest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli_binary.mjs';
import * as ort from 'onnxruntime-web';

ort.env.wasm.numThreads = 1;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const datasets = join(root, 'datasets');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-onnx-export-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function run(...args) {
  const out = spawnSync(cli, [...args, '--json'], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout);
}

function parseCsvLine(line) {
  const cells = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; ++i) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cell += '"'; ++i; } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { cells.push(cell); cell = ''; } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

// The CSV's rows as the model's float32 input: features in model order, categories as indices.
function modelRows(csvPath, features) {
  const lines = readFileSync(csvPath, 'utf8').split(/\r?\n/).filter((l) => l.length > 0);
  const header = parseCsvLine(lines[0]);
  const columns = features.map((f) => header.indexOf(f.name));
  assert.ok(columns.every((c) => c >= 0));
  const rows = lines.length - 1;
  const x = new Float32Array(rows * features.length);
  for (let r = 0; r < rows; ++r) {
    const cells = parseCsvLine(lines[r + 1]);
    features.forEach((f, j) => {
      const text = cells[columns[j]].trim();
      let v = NaN;
      if (text !== '') v = f.type === 'categorical' ? f.categories.indexOf(text) : Number(text);
      x[r * features.length + j] = v < 0 && f.type === 'categorical' ? NaN : v;
    });
  }
  return { x, rows };
}

async function check(file, trainArgs, { weighted = false } = {}) {
  const model = join(tmp, `${file}.urnf`);
  const onnx = join(tmp, `${file}.onnx`);
  const trained = run('train', '--data', join(datasets, file), '--seed', '3', ...trainArgs, '--out', model);
  const exported = run('export', '--model', model, '--onnx', onnx);
  assert.equal(exported.trees, trained.trees);
  assert.deepEqual(exported.classes, trained.classes);
  const predicted = run('predict', '--model', model, '--data', join(datasets, file));
  const { x, rows } = modelRows(join(datasets, file), exported.features);

  const session = await ort.InferenceSession.create(readFileSync(onnx));
  const out = await session.run({ X: new ort.Tensor('float32', x, [rows, exported.features.length]) });
  const labels = Array.from(out.label.data, String);
  assert.equal(labels.length, rows);
  let mismatched = 0;
  for (let r = 0; r < rows; ++r) mismatched += labels[r] !== predicted.labels[r];
  assert.equal(mismatched, 0, `${file}: ${mismatched} of ${rows} labels differ from urnforest predict`);
  if (weighted) return;
  const k = exported.classes.length;
  const z = out.probabilities.data;
  assert.equal(z.length, rows * k);
  let worst = 0;
  for (let i = 0; i < z.length; ++i) worst = Math.max(worst, Math.abs(z[i] - predicted.votes[i] / trained.trees));
  assert.ok(worst <= 1e-6, `${file}: probabilities differ from votes / T by ${worst}`);
}

test('an exported random forest on numeric data labels every row as urnforest does (iris)', async () => {
  await check('iris.csv', ['--trees', '25']);
});

test('an exported forest with categorical splits and missing values labels every row as urnforest does (soybean)', async () => {
  await check('soybean.csv', ['--trees', '25']);
});

test('an exported two-class forest labels every row as urnforest does, ties included (wdbc)', async () => {
  await check('wdbc.csv', ['--trees', '25']);
  await check('wdbc.csv', ['--trees', '24', '--mtry', '1']);
});

test('an exported AdaBoost ensemble labels every row by its weighted vote (wdbc, iris)', async () => {
  await check('wdbc.csv', ['--ensemble', 'adaboost', '--trees', '15'], { weighted: true });
  await check('iris.csv', ['--ensemble', 'adaboost', '--trees', '15'], { weighted: true });
});

test('export refuses a file that is not a model, with one JSON error', () => {
  const out = spawnSync(cli, ['export', '--model', join(datasets, 'iris.csv'), '--onnx', join(tmp, 'x.onnx'), '--json'], { encoding: 'utf8' });
  assert.notEqual(out.status, 0);
  assert.ok(JSON.parse(out.stdout).error.code);
});
