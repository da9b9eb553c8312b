// Per-call cost of predict in wasm: a 1-row dataset (where the call itself dominates)
// and wdbc's 284 test rows, full vote and halted (hyper, alpha 0.99, compare: false), with the
// share of the halted call, and halted in random query order (each row draws its own tree order).
// It also times what the engine charges for one `new ArrayBuffer` of the size of the halted answer
// (32 + 17 n bytes: the result's typed arrays live in one buffer of their own, which every call
// must allocate), interleaved with the calls, and the share the halted call would reach if that
// allocation were free (a bound, not a mode of the library); skipped for answers of at most 64
// bytes, which V8 keeps on its heap. Not a test.
//
//   node bench/call_overhead.mjs [--rounds 3]
//
// Trains its model with build/urnforest (101 trees, seed 1, even rows of wdbc), as run.mjs does;
// times with run.mjs's warm-up and repeat-until-20-ms, medians of 7 alternating measurements.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../dist/index.js';
import { numberOption } from './args.mjs';
import { median, msPerCall } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = numberOption('rounds', 3);
const uf = await init();
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-calls-'));
try {
  const [header, ...body] = readFileSync(join(root, 'datasets/wdbc.csv'), 'utf8').trim().split(/\r?\n/);
  const train = join(tmp, 'train.csv');
  const model = join(tmp, 'wdbc.urnf');
  writeFileSync(train, [header, ...body.filter((_, i) => i % 2 === 0)].join('\n') + '\n');
  execFileSync(join(root, 'build/urnforest'), ['train', '--data', train, '--trees', '101', '--seed', '1',
    '--out', model, '--json']);
  const forest = uf.Forest.fromBytes(new Uint8Array(readFileSync(model)));
  const test = body.filter((_, i) => i % 2 === 1);
  const sets = { '1 row': uf.Dataset.fromCSV(`${header}\n${test[0]}\n`),
    [`${test.length} rows`]: uf.Dataset.fromCSV([header, ...test].join('\n') + '\n') };
  const halted = { rule: 'hyper', alpha: 0.99, compare: false };
  const us = (ms) => (ms * 1000).toFixed(2);
  for (let r = 0; r < rounds; r++) {
    const line = [];
    for (const [name, data] of Object.entries(sets)) {
      const meanTrees = forest.predict(data, halted).meanTrees;
      const full = [];
      const stop = [];
      for (let k = 0; k < 7; k++) {
        full.push(msPerCall(() => forest.predict(data)));
        stop.push(msPerCall(() => forest.predict(data, halted)));
      }
      const bytes = 32 + 17 * data.numRows; // HaltedAnswerHeader (32 bytes) + 17 bytes per row
      const alloc = [];
      if (bytes > 64) for (let k = 0; k < 7; k++) alloc.push(msPerCall(() => new ArrayBuffer(bytes)));
      const random = [];
      for (let k = 0; k < 3; k++) random.push(msPerCall(() => forest.predict(data, { ...halted, order: 'random', seed: 3 })));
      const share = median(full) / median(stop) / (forest.numTrees / meanTrees);
      const shareWithoutAlloc = median(full) / (median(stop) - median(alloc)) / (forest.numTrees / meanTrees);
      line.push(`${name}: full ${us(median(full))} us, halted ${us(median(stop))} us (share ${share.toFixed(2)}), ` +
        `random order ${us(median(random))} us` + (alloc.length === 0 ? '' : `, new ArrayBuffer(${bytes}) ` +
        `${us(median(alloc))} us (halted share without it ${shareWithoutAlloc.toFixed(2)})`));
    }
    console.log(line.join(' | '));
  }
  forest.dispose();
  for (const d of Object.values(sets)) d.dispose();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
