// Prediction of a large batch over threads, natively: `urnforest predict --threads N` on 200,000 twonorm
// rows (20 features, a 101-tree forest trained on 5,000 rows), the full vote, the README's halted call
// (--rule hyper) and the halted call with --compare, with 1 and N threads, rounds interleaved. The
// times are the CLI's own (predict_ms: the full vote with the rows' conversion; halted_ms: table and
// halted vote), so reading the CSV and writing the JSON are left out; every answer is compared with
// the one-thread answer. Not a test.
//
//   node bench/predict_threads.mjs [--rounds 5] [--threads 2] [--rows 200000]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.mjs';
import { median } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = numberOption('rounds', 5);
const threads = numberOption('threads', availableParallelism());
const rows = numberOption('rows', 200000);
const cli = join(root, 'build', 'urnforest');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-predict-threads-'));
const load = [loadavg()[0]];
try {
  const train = join(tmp, 'train.csv');
  const test = join(tmp, 'test.csv');
  const model = join(tmp, 'model.urnf');
  execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), '5000', '7', train, '20']);
  execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), '9', test, '20']);
  execFileSync(cli, ['train', '--data', train, '--trees', '101', '--mtry', '4', '--seed', '1', '--out', model, '--json']);
  const calls = { full: [], hyper: ['--rule', 'hyper'], compare: ['--rule', 'hyper', '--compare'] };
  const times = {};
  let same = true;
  const answers = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, extra] of Object.entries(calls)) {
      for (const n of [1, threads]) {
        const out = execFileSync(cli, ['predict', '--model', model, '--data', test, ...extra, '--threads', String(n), '--json'],
          { encoding: 'utf8', maxBuffer: 1 << 30 });
        const doc = JSON.parse(out);
        const key = `${name}/${n}`;
        (times[key] ??= []).push(name === 'full' ? doc.predict_ms : doc.halted_ms + (name === 'compare' ? doc.predict_ms : 0));
        const answer = JSON.stringify(Object.entries(doc).filter(([k]) => !k.endsWith('_ms')));
        answers[name] ??= answer;
        same &&= answers[name] === answer;
      }
    }
  }
  load.push(loadavg()[0]);
  console.log(`predict over threads: ${rows} rows, T = 101, ${rounds} rounds, load average ${load.map((x) => x.toFixed(2)).join(' -> ')}`);
  console.log(`call | 1 thread ms | ${threads} threads ms | speed-up`);
  for (const name of Object.keys(calls)) {
    const one = median(times[`${name}/1`]);
    const many = median(times[`${name}/${threads}`]);
    console.log(`${name} | ${one.toFixed(1)} | ${many.toFixed(1)} | ${(one / many).toFixed(2)}`);
  }
  console.log(`answers identical for 1 and ${threads} threads: ${same}`);
  if (!same) process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
