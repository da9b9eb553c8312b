// Prediction of a large batch over an UrnforestWorker's threads, in wasm: RemoteForest#predict of
// 200,000 twonorm rows (20 features; a 101-tree forest trained on 5,000 rows) given as a Float32Array,
// on a worker of 1 thread and one of N threads, rounds interleaved (1, N, 1, N, ...): the full vote,
// the README's halted call (rule hyper, random order) and the halted call with compare. Times are the
// caller's wall clock around the awaited call (posting the rows, predicting, returning and joining the
// answer). Every N-thread answer is compared, byte for byte, with the 1-thread answer.
//
// --sweep: the split's break-even, for the threshold in bindings/worker/parallel_predict.js: for a
// range of batch sizes, one 1-thread worker predicting the batch against two 1-thread workers each
// predicting half of it (with firstRow), joined as the split joins it. Not a test.
//
//   node bench/predict_worker_threads.mjs [--rounds 7] [--threads 2] [--rows 200000] [--sweep]
import { loadavg } from 'node:os';
import { init } from '../dist/index.js';
import { UrnforestWorker } from '../dist/worker.js';
import { flag, numberOption } from './args.mjs';
import { median } from './timing.mjs';

const rounds = numberOption('rounds', 7);
const threads = numberOption('threads', 2);
const rows = numberOption('rows', 200000);
const COLS = 20;

// Twonorm (Breiman): 20 Gaussian features of unit variance, means +-2/sqrt(20) by class.
function twonorm(n, seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
  const a = 2 / Math.sqrt(COLS);
  const x = new Float32Array(n * COLS);
  const labels = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    labels[r] = r % 2;
    for (let c = 0; c < COLS; c++) {
      x[r * COLS + c] = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()) + (labels[r] ? a : -a);
    }
  }
  return { x, labels };
}

// The bytes of every field of an answer (typed arrays as bytes, other fields as JSON), but `table`
// (what the table cost this call: built on a session's first call, cached after).
function fingerprint(answer) {
  return JSON.stringify(Object.keys(answer).filter((key) => key !== 'table').sort().map((key) => {
    const v = answer[key];
    if (ArrayBuffer.isView(v)) return [key, v.constructor.name, Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')];
    return [key, v];
  }));
}

// Wall-clock ms of the awaited call and the CPU ms the process (every thread of it) spent meanwhile.
async function timed(f) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, value };
}

const uf = await init();
const load = [loadavg()[0]];
const train = twonorm(5000, 7);
const trainSet = uf.Dataset.fromArrays(train.x, { rows: 5000, cols: COLS, labels: train.labels });
const forest = uf.trainForest(trainSet, { trees: 101, mtry: 4, seed: 1 });
const model = forest.toBytes();
forest.dispose();
trainSet.dispose();

if (flag('sweep')) {
  const workers = [0, 1, 2].map(() => new UrnforestWorker({ threads: 1 }));
  const [whole, left, right] = await Promise.all(workers.map((w) => w.load(model)));
  const options = { rule: 'hyper', order: 'random' };
  console.log(`split break-even: 1 thread vs 2 halves (firstRow), T = 101, ${rounds} rounds, load average ${load[0].toFixed(2)}`);
  console.log('rows | rows x trees | full: 1 ms | 2 halves ms | speed-up | CPU ratio | hyper: 1 ms | 2 halves ms | speed-up | CPU ratio');
  for (const n of [250, 500, 1000, 2000, 5000, 10000, 20000, 50000]) {
    const { x } = twonorm(n, 9);
    const half = Math.floor(n / 2);
    const cells = [];
    for (const o of [undefined, options]) {
      const one = [];
      const two = [];
      const cpuOne = [];
      const cpuTwo = [];
      for (let r = 0; r < rounds + 1; r++) {
        const a = await timed(() => whole.predict({ x: x.slice(), options: { rows: n, cols: COLS } }, o, { transfer: true }));
        const b = await timed(async () => {
          const parts = await Promise.all([
            left.predict({ x: x.slice(0, half * COLS), options: { rows: half, cols: COLS } }, o, { transfer: true }),
            right.predict({ x: x.slice(half * COLS), options: { rows: n - half, cols: COLS } },
              o === undefined ? undefined : { ...o, firstRow: half }, { transfer: true }),
          ]);
          const joined = new Int32Array(n);
          joined.set(parts[0].classIndex, 0);
          joined.set(parts[1].classIndex, half);
          return joined;
        });
        if (r > 0) { one.push(a.ms); two.push(b.ms); cpuOne.push(a.cpu); cpuTwo.push(b.cpu); } // round 0 warms up
      }
      cells.push(median(one).toFixed(2), median(two).toFixed(2), (median(one) / median(two)).toFixed(2),
        (median(cpuTwo) / median(cpuOne)).toFixed(2));
    }
    console.log(`${n} | ${n * 101} | ${cells.join(' | ')}`);
  }
  for (const w of workers) w.terminate();
  console.log(`load average at the end: ${loadavg()[0].toFixed(2)}`);
} else {
  const { x } = twonorm(rows, 9);
  const calls = {
    full: undefined,
    hyper: { rule: 'hyper', order: 'random' },
    'hyper compare': { rule: 'hyper', order: 'random', compare: true },
  };
  const one = new UrnforestWorker({ threads: 1 });
  const many = new UrnforestWorker({ threads });
  const remotes = { 1: await one.load(model), [threads]: await many.load(model) };
  const times = {};
  const cpus = {};
  const answers = {};
  let same = true;
  for (let r = 0; r < rounds + 1; r++) {
    for (const [name, options] of Object.entries(calls)) {
      for (const n of [1, threads]) {
        const { ms, cpu, value } = await timed(() => remotes[n].predict({ x, options: { rows, cols: COLS } }, options));
        const print = fingerprint(value);
        answers[name] ??= print;
        same &&= answers[name] === print;
        if (r > 0) { // round 0 starts the threads and loads the model
          (times[`${name}/${n}`] ??= []).push(ms);
          (cpus[`${name}/${n}`] ??= []).push(cpu);
        }
      }
    }
  }
  one.terminate();
  many.terminate();
  load.push(loadavg()[0]);
  console.log(`worker predict over threads (wasm): ${rows} rows, T = 101, ${rounds} rounds, load average ${load.map((v) => v.toFixed(2)).join(' -> ')}`);
  // CPU ms: all threads' CPU time during the call; its ratio is the work the split adds (it bounds the
  // speed-up on an idle machine: at most `threads` x CPU(1) / CPU(N)).
  console.log(`call | 1 thread ms | ${threads} threads ms | speed-up | 1 thread CPU ms | ${threads} threads CPU ms | CPU ratio`);
  for (const name of Object.keys(calls)) {
    const a = median(times[`${name}/1`]);
    const b = median(times[`${name}/${threads}`]);
    const ca = median(cpus[`${name}/1`]);
    const cb = median(cpus[`${name}/${threads}`]);
    console.log(`${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)} | ${ca.toFixed(1)} | ${cb.toFixed(1)} | ${(cb / ca).toFixed(2)}`);
  }
  console.log(`answers identical for 1 and ${threads} threads: ${same}`);
  if (!same) process.exitCode = 1;
}
