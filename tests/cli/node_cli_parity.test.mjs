// The Node CLI (bin/urnforest.mjs, what `npx urnforest` runs) is the native CLI's own C++ over the
// wasm core: on three data sets (two classes; four; nineteen with categorical features and missing
// values) it writes the same model bytes, and `predict ... --json` prints the same bytes as the native
// build/urnforest, once the timing fields (train_ms, predict_ms, table_ms, halted_ms, ...: wall-clock
// times, every key ending in _ms) are blanked in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativeCli, nodeCli } from './cli_binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-cli-parity-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** stdout of `tool args`, which must exit 0. */
function stdoutOf(tool, args) {
  const out = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(out.status, 0, `${tool} ${args.join(' ')}: ${out.stderr}`);
  return out.stdout;
}

/** A JSON document's text with the value of every "..._ms" key replaced by null. */
function withoutTimings(text) {
  return text.replace(/"([a-z_]+_ms)":-?[0-9][0-9.eE+-]*/g, '"$1":null');
}

for (const name of ['wdbc', 'vehicle', 'soybean']) {
  test(`${name}: the Node CLI trains the same model bytes and predicts the same JSON bytes as the native one`, () => {
    const data = join(root, 'datasets', `${name}.csv`);
    const nativeModel = join(tmp, `${name}-native.urnf`);
    const nodeModel = join(tmp, `${name}-node.urnf`);
    const train = ['train', '--data', data, '--trees', '51', '--seed', '7', '--json'];
    const trainedNative = stdoutOf(nativeCli, [...train, '--threads', '2', '--out', nativeModel]);
    const trainedNode = stdoutOf(nodeCli, [...train, '--threads', '2', '--out', nodeModel]);
    assert.deepEqual(readFileSync(nodeModel), readFileSync(nativeModel));
    assert.equal(withoutTimings(trainedNode).replace(nodeModel, 'M'), withoutTimings(trainedNative).replace(nativeModel, 'M'));
    for (const extra of [[], ['--rule', 'hyper', '--alpha', '0.99', '--compare'], ['--rule', 'siba', '--order', 'random', '--seed', '3'], ['--proba']]) {
      const args = ['predict', '--model', nativeModel, '--data', data, ...extra, '--json'];
      const native = stdoutOf(nativeCli, args);
      assert.match(native, /"[a-z_]+_ms":/, 'the output has timing fields, blanked before comparing');
      assert.equal(withoutTimings(stdoutOf(nodeCli, args)), withoutTimings(native), extra.join(' '));
    }
  });
}
