// Sections of `npm run bench` that run a bench script of their own in a child process and read its
// output (not a test): the worker split of a large predict (bench/predict_worker_threads.mjs) and the
// inference-only entry's size and first prediction in Chromium (bench/predict_entry.mjs). A child
// process keeps their threads and browsers out of the parent's timings.
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = (script, args) => String(execFileSync(process.execPath, [join(root, 'bench', script), ...args],
  { cwd: root, maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] }));

/**
 * RemoteForest#predict of `rows` twonorm rows on a 1-thread and a `threads`-thread worker, rounds
 * interleaved. Returns {rows, threads, rounds, load: [start, end] (1-minute), calls: {full, hyper,
 * 'hyper compare'}: {one_ms, many_ms, speedup, one_cpu_ms, many_cpu_ms, cpu_ratio}, identical}.
 * Throws when the script's output has changed shape.
 */
export function workerSplit({ rounds = 5, threads = 2, rows = 200000 } = {}) {
  const text = node('predict_worker_threads.mjs', ['--rounds', String(rounds), '--threads', String(threads), '--rows', String(rows)]);
  const lines = text.trim().split('\n');
  const head = lines.find((l) => l.startsWith('worker predict over threads'));
  const same = lines.find((l) => l.startsWith('answers identical'));
  if (!head || !same) throw new Error(`predict_worker_threads.mjs printed an unexpected report:\n${text}`);
  const load = head.replace(/.*load average /, '').split(' -> ').map(Number);
  const calls = {};
  for (const line of lines) {
    const cells = line.split(' | ');
    if (cells.length !== 7 || cells[0] === 'call') continue;
    const [name, ...v] = cells;
    const [oneMs, manyMs, speedup, oneCpu, manyCpu, cpuRatio] = v.map(Number);
    calls[name] = { one_ms: oneMs, many_ms: manyMs, speedup, one_cpu_ms: oneCpu, many_cpu_ms: manyCpu, cpu_ratio: cpuRatio };
  }
  if (!calls.full) throw new Error(`predict_worker_threads.mjs printed no 'full' row:\n${text}`);
  return { rows, threads, rounds, load, calls, identical: same.trim().endsWith('true') };
}

/**
 * urnforest/predict against the full package in headless Chromium: gzip -9 bytes of what each page
 * loads and ms from navigation to the first prediction (reloads, first load). Returns the script's
 * JSON report.
 */
export function predictEntry({ rounds = 5, reloads = 5 } = {}) {
  const text = node('predict_entry.mjs', ['--rounds', String(rounds), '--reloads', String(reloads)]);
  const end = text.indexOf('\n\n|');
  return JSON.parse(end >= 0 ? text.slice(0, end) : text);
}
