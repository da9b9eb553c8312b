// The CLI's output must arrive or the command fails: stdout and every file it writes (--out, --onnx) are
// checked on each write and close; a failure is IoError with a non-zero exit, and a model file is never
// left half written under its final name. Runs build/urnforest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, cliKind } from './cli_binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wdbc = join(root, 'datasets', 'wdbc.csv');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-cli-output-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const model = join(tmp, 'model.urnf');
const trained = spawnSync(cli, ['train', '--data', wdbc, '--trees', '21', '--seed', '4', '--out', model]);
assert.equal(trained.status, 0, String(trained.stderr));

/** Runs the CLI with stdout written to the file or device `stdoutPath`, or closed ('closed'). */
function runTo(stdoutPath, args) {
  if (stdoutPath === 'closed') {
    return spawnSync('/bin/sh', ['-c', 'exec "$0" "$@" >&-', cli, ...args], { encoding: 'utf8' });
  }
  const fd = openSync(stdoutPath, 'w');
  try {
    return spawnSync(cli, args, { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs the CLI with a file-size limit of 512 bytes (RLIMIT_FSIZE, SIGXFSZ ignored): every file write
 * beyond that fails with EFBIG, as on a full disk. Returns {status, doc, stderr}.
 */
function runFull(args) {
  const out = spawnSync('/bin/sh', ['-c', 'trap "" XFSZ; ulimit -f 1; exec "$0" "$@"', cli, ...args, '--json'], { encoding: 'utf8' });
  return { status: out.status, doc: JSON.parse(out.stdout), stderr: out.stderr };
}

/** A fresh folder holding one file, `name`, with `content`. */
function folderWith(name, content) {
  const dir = mkdtempSync(join(tmp, 'dest-'));
  writeFileSync(join(dir, name), content);
  return dir;
}

test('predict --json to a full device fails with IoError and a non-zero exit instead of losing the answer', () => {
  const out = runTo('/dev/full', ['predict', '--model', model, '--data', wdbc, '--json']);
  assert.notEqual(out.status, 0);
  assert.match(out.stderr, /IoError: cannot write the output to stdout: No space left on device/);
});

test('every kind of stdout output fails when it cannot be written: text, JSON, small documents and usage', () => {
  const cases = [
    ['predict', '--model', model, '--data', wdbc],
    ['info', '--model', model, '--json'],
    ['info', '--model', model],
    ['table', '--trees', '11', '--classes', '2', '--rule', 'siba', '--alpha', '0.9', '--json'],
    ['--help'],
  ];
  for (const args of cases) {
    const out = runTo('/dev/full', args);
    assert.equal(out.status, 1, `${args.join(' ')}: ${out.stderr}`);
    assert.match(out.stderr, /IoError/, args.join(' '));
  }
});

// Node opens /dev/null in place of a closed stdin, stdout or stderr before any code runs, so the Node
// CLI cannot see a closed stdout (its output goes to /dev/null, exit 0).
test('a closed stdout is a write failure too', { skip: cliKind === 'node' && 'Node replaces a closed stdout by /dev/null' }, () => {
  const out = runTo('closed', ['info', '--model', model, '--json']);
  assert.equal(out.status, 1);
  assert.match(out.stderr, /IoError: cannot write the output to stdout/);
});

test('a failed command whose error document cannot be written still exits non-zero', () => {
  const out = runTo('/dev/full', ['predict', '--model', join(tmp, 'missing.urnf'), '--data', wdbc, '--json']);
  assert.equal(out.status, 1);
  assert.match(out.stderr, /IoError/);
});

test('stdout that can be written still gets exactly the output, with exit 0', () => {
  const path = join(tmp, 'stdout.json');
  const out = runTo(path, ['info', '--model', model, '--json']);
  assert.equal(out.status, 0, out.stderr);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).trees, 21);
});

test('train --out to a full device fails with IoError and leaves the device a device', () => {
  const out = spawnSync(cli, ['train', '--data', wdbc, '--trees', '5', '--out', '/dev/full', '--json'], { encoding: 'utf8' });
  assert.equal(out.status, 1);
  assert.equal(JSON.parse(out.stdout).error.code, 'IoError');
  assert.match(JSON.parse(out.stdout).error.message, /No space left on device/);
  assert.ok(statSync('/dev/full').isCharacterDevice());
});

test('a model that does not fit on the disk leaves no file behind, and an existing model untouched', () => {
  const fresh = mkdtempSync(join(tmp, 'dest-'));
  const full = runFull(['train', '--data', wdbc, '--trees', '21', '--out', join(fresh, 'new.urnf')]);
  assert.equal(full.status, 1, full.stderr);
  assert.equal(full.doc.error.code, 'IoError');
  assert.deepEqual(readdirSync(fresh), []);

  const old = readFileSync(model);
  const dir = folderWith('model.urnf', old);
  const again = runFull(['train', '--data', wdbc, '--trees', '21', '--seed', '9', '--out', join(dir, 'model.urnf')]);
  assert.equal(again.status, 1);
  assert.equal(again.doc.error.code, 'IoError');
  assert.deepEqual(readdirSync(dir), ['model.urnf']);
  assert.deepEqual(readFileSync(join(dir, 'model.urnf')), old);
});

test('every command that writes a file fails cleanly on a full disk: prune, table --store, import, export', () => {
  const cases = [
    (out) => ['prune', '--model', model, '--data', wdbc, '--keep', '10', '--out', out],
    (out) => ['table', '--model', model, '--rule', 'siba', '--alpha', '0.9', '--store', '--out', out],
    (out) => ['export', '--model', model, '--onnx', out],
  ];
  const onnx = join(tmp, 'model.onnx');
  assert.equal(spawnSync(cli, ['export', '--model', model, '--onnx', onnx]).status, 0);
  cases.push((out) => ['import', '--onnx', onnx, '--out', out]);
  for (const args of cases) {
    const dir = folderWith('previous', 'old bytes');
    const result = runFull(args(join(dir, 'previous')));
    assert.equal(result.status, 1, `${args('X').join(' ')}: ${result.stderr}`);
    assert.equal(result.doc.error.code, 'IoError');
    assert.deepEqual(readdirSync(dir), ['previous'], args('X')[0]);
    assert.equal(readFileSync(join(dir, 'previous'), 'utf8'), 'old bytes');
  }
});

test('an --out path that cannot be created fails with IoError naming the path and creates nothing', () => {
  const dir = folderWith('a-file', 'x');
  for (const out of [join(dir, 'missing', 'model.urnf'), join(dir, 'a-file', 'model.urnf')]) {
    const result = spawnSync(cli, ['train', '--data', wdbc, '--trees', '3', '--out', out, '--json'], { encoding: 'utf8' });
    assert.equal(result.status, 1);
    const { error } = JSON.parse(result.stdout);
    assert.equal(error.code, 'IoError');
    assert.ok(error.message.includes(out), error.message);
  }
  assert.deepEqual(readdirSync(dir), ['a-file']);
});

test('a read-only folder is refused with IoError', { skip: process.getuid?.() === 0 && 'root may write anywhere' }, () => {
  const dir = mkdtempSync(join(tmp, 'readonly-'));
  chmodSync(dir, 0o555);
  const result = spawnSync(cli, ['train', '--data', wdbc, '--trees', '3', '--out', join(dir, 'm.urnf'), '--json'], { encoding: 'utf8' });
  chmodSync(dir, 0o755);
  assert.equal(result.status, 1);
  assert.equal(JSON.parse(result.stdout).error.code, 'IoError');
  assert.deepEqual(readdirSync(dir), []);
});

test('replacing a model keeps its permissions and a symbolic link to it, and leaves no temporary file', () => {
  const dir = folderWith('model.urnf', 'old');
  chmodSync(join(dir, 'model.urnf'), 0o640);
  symlinkSync('model.urnf', join(dir, 'link.urnf'));
  const result = spawnSync(cli, ['train', '--data', wdbc, '--trees', '21', '--seed', '4', '--out', join(dir, 'link.urnf')]);
  assert.equal(result.status, 0, String(result.stderr));
  assert.deepEqual(readdirSync(dir).sort(), ['link.urnf', 'model.urnf']);
  assert.ok(lstatSync(join(dir, 'link.urnf')).isSymbolicLink());
  assert.equal(statSync(join(dir, 'model.urnf')).mode & 0o777, 0o640);
  assert.deepEqual(readFileSync(join(dir, 'model.urnf')), readFileSync(model));
});
