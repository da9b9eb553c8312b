// CSV parsing, WebAssembly against native, in one run: Dataset.fromCSV on a string and on the file's
// bytes (Node) against ReadCsv in bench_native (the text already in memory on both sides), on twonorm
// files of a few sizes. Not a test.
//
//   node bench/csv_parse.mjs [--rounds 5]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.mjs';
import { median } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = numberOption('rounds', 5);
const uf = await import(join(root, 'dist', 'index.js')).then((m) => m.init());
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-csv-'));
const load = [loadavg()[0]];
const report = [];
try {
  for (const [rows, features] of [[20000, 50], [200000, 20]]) {
    const path = join(tmp, `twonorm_${rows}x${features}.csv`);
    execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), '3', path, String(features)]);
    const bytes = new Uint8Array(readFileSync(path));
    const text = new TextDecoder().decode(bytes);
    const time = (f) => {
      const start = performance.now();
      const d = f();
      const ms = performance.now() - start;
      d.dispose();
      return ms;
    };
    time(() => uf.Dataset.fromCSV(text)); // warm-up (compilation tiers)
    const wasmText = [];
    const wasmBytes = [];
    for (let r = 0; r < rounds; r++) {
      wasmText.push(time(() => uf.Dataset.fromCSV(text)));
      wasmBytes.push(time(() => uf.Dataset.fromCSV(bytes)));
    }
    const native = JSON.parse(String(execFileSync(join(root, 'build/bench_native'), ['csv', path, String(rounds)])));
    report.push({ file: `twonorm ${rows} x ${features}`, mb: bytes.length / 1e6, native: median(native.ms),
      text: median(wasmText), bytes: median(wasmBytes) });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
load.push(loadavg()[0]);
const f = (x, d = 0) => x.toFixed(d);
console.log(`${rounds} rounds, load average ${load.map((x) => f(x, 2)).join(' -> ')}`);
console.log('| file | MB | native ms | wasm fromCSV(string) ms | wasm fromCSV(bytes) ms | wasm / native (string) | wasm / native (bytes) |');
console.log('|---|---|---|---|---|---|---|');
for (const r of report) {
  console.log(`| ${r.file} | ${f(r.mb, 1)} | ${f(r.native)} | ${f(r.text)} | ${f(r.bytes)} | ${f(r.text / r.native, 2)} | ${f(r.bytes / r.native, 2)} |`);
}
