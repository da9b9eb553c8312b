// JS-boundary fuzzer: random arguments (undefined, null, numbers, NaN, strings, arrays, typed arrays, Maps,
// functions, Symbols, proxies, huge values, disposed and never-constructed objects, random option objects)
// against every public function of the package (dist/index.js's exports and their instance methods, and
// the urnforest/worker API). A call may return or throw an UrnforestError with a code other than
// 'Internal', a TypeError or RangeError of the library (not an engine TypeError such as "Cannot read
// properties of undefined"), or a documented plain Error (use after dispose, dispose during a call); a
// promise may reject with the same or with an AbortError. Anything else fails the run, as does an
// unhandled rejection, a module abort, or a call running longer than the per-call time limit.
// Oracle targets (tests/fuzz/js_boundary_oracles.mjs) also check answers: caller-owned outputs that
// share a buffer, inputs mutated after a call returns or during its callback, and rows or options
// whose own keys are `__proto__`, `constructor` or `valueOf` must give the answer of a clean call,
// or be refused with a documented error.
//
//   node tests/fuzz/js_boundary.mjs        (URNFOREST_FUZZ_SECONDS, default 30; URNFOREST_FUZZ_SEED)
//   URNFOREST_FUZZ_SEED=s URNFOREST_FUZZ_REPLAY=n node tests/fuzz/js_boundary.mjs   prints call n of seed s
//
// The calls run in a worker thread; this thread is the watchdog (a synchronous call into wasm cannot be
// interrupted from inside): the fuzzing thread counts its calls in shared memory, and a count that stops
// moving for URNFOREST_FUZZ_CALL_SECONDS (default 60) is a hang, reported with the seed and call number.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { oracleTargets } from './js_boundary_oracles.mjs';

const seconds = Number(process.env.URNFOREST_FUZZ_SECONDS ?? 30);
const callSeconds = Number(process.env.URNFOREST_FUZZ_CALL_SECONDS ?? 60);

if (isMainThread) {
  const seed = Number(process.env.URNFOREST_FUZZ_SEED ?? (Date.now() % 2 ** 31));
  const replay = process.env.URNFOREST_FUZZ_REPLAY === undefined ? -1 : Number(process.env.URNFOREST_FUZZ_REPLAY);
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL(import.meta.url), { workerData: { seed, seconds, replay, counter } });
  let last = -1;
  let stillSince = Date.now();
  let finished = false;
  const watchdog = setInterval(() => {
    const now = Atomics.load(counter, 0);
    if (now !== last) {
      last = now;
      stillSince = Date.now();
    } else if (Date.now() - stillSince > callSeconds * 1000) {
      console.error(`js_boundary: HANG: call ${now} (seed ${seed}) ran longer than ${callSeconds} s; ` +
        `describe it with URNFOREST_FUZZ_SEED=${seed} URNFOREST_FUZZ_REPLAY=${now} node tests/fuzz/js_boundary.mjs`);
      process.exitCode = 1;
      finished = true;
      worker.terminate();
      clearInterval(watchdog);
    }
  }, 1000);
  worker.on('message', (m) => {
    if (m.type === 'log') console.log(m.text);
    if (m.type === 'done') {
      finished = true;
      clearInterval(watchdog);
      console.log(m.text);
      if (m.failures > 0) process.exitCode = 1;
    }
  });
  worker.on('error', (e) => {
    console.error(`js_boundary: the fuzzing thread died (seed ${seed}, call ${Atomics.load(counter, 0)}): ${e?.stack ?? e}`);
    process.exitCode = 1;
    finished = true;
    clearInterval(watchdog);
  });
  worker.on('exit', (code) => {
    clearInterval(watchdog);
    if (!finished) {
      console.error(`js_boundary: the fuzzing thread exited (code ${code}) before finishing (seed ${seed})`);
      process.exitCode = 1;
    }
  });
} else {
  await fuzz(workerData);
}

async function fuzz({ seed, seconds: budget, replay, counter }) {
  const uf = await import('../../dist/index.js');
  const { UrnforestWorker } = await import('../../dist/worker.js');
  const api = await uf.init();
  const log = (text) => parentPort.postMessage({ type: 'log', text });
  // Distinct failures (by function and message, numbers masked) -> the first call that showed it.
  const distinct = new Map();
  let failureCount = 0;
  const failures = { push(text) {
    failureCount++;
    const key = text.replace(/^call \d+ /, '').replace(/\d+/g, 'N');
    if (!distinct.has(key)) distinct.set(key, text);
  } };
  const unhandled = [];
  process.on('unhandledRejection', (reason) => unhandled.push(reason));

  // ---- random source (mulberry32) ---------------------------------------------------------------
  let state = seed >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n) => Math.floor(rand() * n);
  const pick = (xs) => xs[int(xs.length)];

  // ---- fixtures ---------------------------------------------------------------------------------
  const irisText = readFileSync(new URL('../../datasets/iris.csv', import.meta.url), 'utf8');
  const small = 'a,b,class\n1,5,x\n2,6,x\n3,7,y\n4,8,y\n5,1,x\n6,2,y\n';
  const iris = api.Dataset.fromCSV(irisText);
  const smallData = api.Dataset.fromCSV(small);
  const unlabeled = api.Dataset.fromCSV(small, { target: null });
  const forest = api.trainForest(iris, { trees: 11, seed: 1 });
  const smallForest = api.trainForest(smallData, { trees: 5, seed: 1 });
  const table = api.haltingTable({ rule: 'siba', trees: 11, classes: 3 });
  const modelBytes = forest.toBytes();
  const tableBytes = table.toBytes();
  const deadData = api.Dataset.fromCSV(small);
  deadData.dispose();
  const deadForest = api.Forest.fromBytes(modelBytes);
  deadForest.dispose();
  const deadTable = api.HaltingTable.fromBytes(tableBytes);
  deadTable.dispose();
  const fakes = [Object.create(api.Dataset.prototype), Object.create(api.Forest.prototype),
    Object.create(api.HaltingTable.prototype)];
  const worker = new UrnforestWorker();
  const remote = await worker.load(modelBytes);

  const names = ['rf', 'bagging', 'adaboost', 'voteboost', 'siba', 'alpha1', 'hyper', '1dir', 'ndir', 'infinite',
    'optimal', 'margin', 'generation', 'random', 'fixed', 'sorted', 'firstSeen', 'soft', 'hard', 'cv', 'none',
    'sqrt', 'log2', 'boosting', 'early', 'twonorm', 'class', 'a', 'b', 'x', 'y', 'setosa', 'depth:2', 'stump',
    'pruned', 'resample', 'reweight', 'ordered'];
  const optionKeys = ['rule', 'alpha', 'trees', 'order', 'seed', 'compare', 'vote', 'samples', 'fixedOrder',
    'ensemble', 'mtry', 'mtryRule', 'maxDepth', 'minLeaf', 'onProgress', 'boosting', 'voteboost', 'adaboost',
    'treePruning', 'treeFolds', 'treeSe', 'target', 'classOrder', 'schemaOf', 'rows', 'cols', 'labels',
    'featureNames', 'classNames', 'final', 'classes', 'votes', 'ordering', 'backfit', 'mdmP', 'training', 'data',
    'name', 'train', 'test', 'rules', 'folds', 'repeats', 'holdout', 'stratified', 'proxyTrees', 'prune', 'keep',
    'queryOrder', 'noise', 'a', 'b', 'base', 'cvTrees', 'signal', 'csv', 'x', 'options', 'url', 'bogus'];
  // Numbers: small valid ones mostly, limits and their neighbours, and invalid ones. Valid values that
  // mean hours of work (100,000 trees on iris) are not drawn: the per-call limit is for hangs.
  const numbers = [0, 1, 2, 3, 5, 7, 11, 0.5, 0.99, 1e-9, -1, -0, 1.5, NaN, Infinity, -Infinity, 2 ** 31,
    2 ** 53, 2 ** 64, 100001, 4097, 65535, 1e308, -1e308, 3.5e38, Number.MIN_VALUE, 149, 150];
  const strings = ['', ' 11', '11', '+11', '0x1p-1', 'x'.repeat(5000), '\uD800', 'a,b\n1,2\n', small, '__proto__',
    'constructor', 'toString'];
  const tricky = () => pick([
    () => undefined, () => null, () => pick(numbers), () => pick(strings), () => pick(names), () => 10n, () => -1n,
    () => 2n ** 70n, () => true, () => false, () => Symbol('s'), () => [], () => [pick(names)],
    () => Array.from({ length: int(6) }, () => pick(numbers)), () => new Float32Array(int(12)),
    () => new Int32Array(Array.from({ length: int(6) }, () => int(5) - 1)), () => new Uint32Array(3),
    () => new Uint8Array(Array.from({ length: int(64) }, () => int(256))), () => mutate(modelBytes),
    () => mutate(tableBytes), () => modelBytes.slice(), () => new ArrayBuffer(8), () => new DataView(new ArrayBuffer(4)),
    () => new Map([['trees', 0], ['rule', 'siba']]), () => new Set([1]), () => new Date(0), () => /x/,
    () => () => false, () => () => { throw new Error('from a callback'); }, () => function named() {},
    () => new Proxy({}, {}), () => new Proxy({ rule: 'siba' }, { get: (t, k) => (k === 'rule' ? pick(names) : t[k]) }),
    () => ({ toString: () => 'bagging', valueOf: () => 11 }), () => Object.create(null),
    () => iris, () => smallData, () => unlabeled, () => forest, () => smallForest, () => table, () => deadData,
    () => deadForest, () => deadTable, () => pick(fakes), () => Promise.resolve(1), () => new AbortController().signal,
    () => AbortSignal.abort(), () => options(), () => options(), () => options(),
  ])();
  function mutate(bytes) {
    const out = bytes.slice(0, rand() < 0.3 ? int(bytes.length + 1) : bytes.length);
    for (let k = int(4); k > 0 && out.length > 0; k--) out[int(out.length)] ^= 1 << int(8);
    return out;
  }
  function options(depth = 0) {
    const o = rand() < 0.1 ? Object.create(null) : {};
    for (let k = int(5); k > 0; k--) {
      const key = pick(optionKeys);
      o[key] = depth < 2 && rand() < 0.15 ? options(depth + 1) : valueFor(key);
    }
    return o;
  }
  // Mostly plausible values for a known key, else anything.
  function valueFor(key) {
    if (rand() < 0.4) return tricky();
    switch (key) {
      case 'trees': case 'mtry': case 'maxDepth': case 'minLeaf': case 'samples': case 'classes': case 'folds':
      case 'repeats': case 'keep': case 'backfit': case 'cvTrees': case 'proxyTrees': case 'treeFolds': case 'rows':
      case 'cols':
        return pick([1, 2, 3, 5, 11, 0, -1, 1.5, 100001]);
      case 'train': case 'test':
        return pick([2, 20, 50, 0]);
      case 'alpha': case 'holdout': case 'noise': case 'mdmP': case 'treeSe':
        return pick([0.5, 0.9, 0.99, 1, 0, 1.5, -0.5, NaN]);
      case 'a': case 'b':
        return pick([0.5, 1, 2, 'cv', 0, 1e7]);
      case 'rule': return pick(api.rules.concat(['margin', 'bogus']));
      case 'rules': return [pick(api.rules)];
      case 'ordering': case 'prune': return pick(api.orderings.concat(['bogus']));
      case 'data': return pick(['twonorm', 'ringnorm', iris, smallData, 'bogus']);
      case 'onProgress': return pick([() => true, () => false, () => { throw new RangeError('stop'); }, () => deadData.dispose()]);
      case 'seed': return pick([0, 1, 2 ** 53 - 1, 2n ** 63n, -1]);
      case 'labels': return pick([new Int32Array(6), ['x', 'y', 'x', 'y', 'x', 'y'], new Int32Array(2)]);
      case 'classNames': case 'featureNames': return pick([['x', 'y'], ['x', 'x'], ['a', 'b'], ['a']]);
      case 'votes': case 'final': return pick([[3, 2], [1, 0, 0], new Int32Array([6, 5]), [11, 0, 0]]);
      case 'fixedOrder': return pick([new Int32Array([0, 1, 2]), [0, 0], [10, 3]]);
      case 'signal': return pick([AbortSignal.abort(), new AbortController().signal]);
      case 'csv': return pick([small, irisText, new TextEncoder().encode(small), new TextEncoder().encode(small).buffer]);
      case 'x': return new Float32Array(pick([4, 6, 12]));
      default: return pick(names);
    }
  }
  const ds = () => (rand() < 0.7 ? pick([iris, smallData, unlabeled]) : tricky());
  const anyForest = () => (rand() < 0.8 ? pick([forest, smallForest]) : pick([deadForest, fakes[1]]));
  const anyTable = () => (rand() < 0.8 ? table : pick([deadTable, fakes[2]]));
  const own = (x) => {
    for (const v of [x, ...(x !== null && typeof x === 'object' ? Object.values(x) : [])]) {
      if (v instanceof api.Dataset || v instanceof api.Forest || v instanceof api.HaltingTable) {
        try { v.dispose(); } catch { /* a fake or a busy one */ }
      }
    }
    return x;
  };
  const getters = (proto) => Object.entries(Object.getOwnPropertyDescriptors(proto))
    .filter(([k, d]) => d.get && k !== 'constructor').map(([k]) => k);
  const methods = (proto) => Object.getOwnPropertyNames(proto)
    .filter((k) => k !== 'constructor' && k !== 'dispose' && typeof Object.getOwnPropertyDescriptor(proto, k).value === 'function');

  // ---- targets: [name, () => result (or a promise)] -------------------------------------------------
  const targets = [
    ['Dataset.fromCSV', () => own(api.Dataset.fromCSV(rand() < 0.5 ? pick([small, irisText]) : tricky(), tricky()))],
    ['Dataset.fromArrays', () => own(api.Dataset.fromArrays(rand() < 0.5 ? new Float32Array(pick([4, 6, 12])) : tricky(), tricky()))],
    ['trainForest', () => own(api.trainForest(ds(), tricky()))],
    ['Forest.fromBytes', () => own(api.Forest.fromBytes(rand() < 0.5 ? mutate(modelBytes) : tricky()))],
    ['Forest.fromONNX', () => own(api.Forest.fromONNX(rand() < 0.5 ? mutate(modelBytes) : tricky(), tricky()))],
    ['HaltingTable.fromBytes', () => own(api.HaltingTable.fromBytes(rand() < 0.5 ? mutate(tableBytes) : tricky()))],
    ['haltingTable', () => own(api.haltingTable(tricky()))],
    ['pstar', () => api.pstar(tricky())],
    ['runExperiment', () => api.runExperiment(tricky(), tricky())],
    ['emphasisWeights', () => api.emphasisWeights(tricky(), tricky(), tricky())],
    ['emphasisGrid', () => api.emphasisGrid()],
    ['generators', () => api.generators()],
    ['memoryStats', () => api.memoryStats()],
    ['new Dataset', () => new api.Dataset(tricky(), tricky())],
    ['new Forest', () => new api.Forest(tricky(), tricky())],
    ['new HaltingTable', () => new api.HaltingTable(tricky(), tricky())],
    ['new UrnforestError', () => new api.UrnforestError(tricky(), pick(strings), tricky())],
    ...methods(api.Dataset.prototype).map((k) => [`dataset.${k}`, () => {
      const d = ds();
      // A fuzzed `this` too: the method of the prototype, called on whatever ds() gave.
      return own(api.Dataset.prototype[k].call(d, tricky(), tricky()));
    }]),
    ...getters(api.Dataset.prototype).map((k) => [`dataset.${k}`, () => pick([iris, deadData, fakes[0]])[k]]),
    ...methods(api.Forest.prototype).filter((k) => k !== 'calibrate').map((k) => [`forest.${k}`, () => {
      const f = anyForest();
      // Plausible first arguments half of the time, so that the options get read.
      const first = rand() < 0.5 ? ds() : tricky();
      return own(f[k](first, tricky(), tricky()));
    }]),
    ['forest.predict(halted)', () => anyForest().predict(ds(), { rule: pick(api.rules), ...options() })],
    ['forest.haltingTable', () => own(anyForest().haltingTable({ rule: pick(api.rules), ...options() }))],
    ...getters(api.Forest.prototype).map((k) => [`forest.${k}`, () => anyForest()[k]]),
    ...methods(api.HaltingTable.prototype).map((k) => [`table.${k}`, () => anyTable()[k](tricky(), tricky())]),
    ...getters(api.HaltingTable.prototype).map((k) => [`table.${k}`, () => anyTable()[k]]),
    ['dispose (fake)', () => pick(fakes).dispose()],
    ['worker.train', () => worker.train(tricky(), tricky(), tricky())],
    ['worker.haltingTable', () => worker.haltingTable(tricky(), tricky())],
    ['worker.expectedCost', () => worker.expectedCost(tricky(), tricky())],
    ['worker.experiment', () => worker.experiment(tricky(), tricky())],
    ['worker.load', () => worker.load(rand() < 0.5 ? mutate(modelBytes) : tricky(), tricky())],
    ...methods(Object.getPrototypeOf(remote)).filter((k) => !k.startsWith('_'))
      .map((k) => [`remote.${k}`, () => remote[k](tricky(), tricky(), tricky())]),
    ...oracleTargets({ api, rand, int, pick, iris, forest, remote, worker, irisText, options, wrong: (text) => failures.push(text) }),
  ];

  const engineBug = /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not a constructor|Cannot convert|Cannot mix BigInt|undefined is not|null is not|Maximum call stack|private member|Invalid array length/;
  const documentedPlain = /has been disposed|cannot be disposed while|call `await init\(\)`|UrnforestWorker has been terminated|from a callback|RemoteForest has been disposed/;
  function problem(e) {
    if (e instanceof api.UrnforestError) {
      if (typeof e.code !== 'string' || e.code === '') return 'an UrnforestError without a code';
      if (e.code === 'Internal' || e.code === 'ModuleReset') return `code ${e.code}`;
      return null;
    }
    if (e instanceof TypeError || e instanceof RangeError) return engineBug.test(e.message) ? 'an engine error (a bug in the wrapper)' : null;
    if (e instanceof DOMException && e.name === 'AbortError') return null;
    if (e instanceof Error && (documentedPlain.test(e.message) || e.code === 'RemoteDisposed')) return null;
    if (e === 'stop' || (e instanceof Error && e.message === 'stop')) return null; // thrown by a fuzzed onProgress
    return 'an undocumented kind of error';
  }
  const describeError = (e) => (e instanceof Error ? `${e.name}${e.code ? ` ${e.code}` : ''}: ${e.message.slice(0, 300)}` : String(e));

  const counts = new Map();
  const start = Date.now();
  let calls = 0;
  while (replay >= 0 ? calls <= replay : Date.now() - start < budget * 1000) {
    const [name, run] = pick(targets);
    Atomics.store(counter, 0, calls);
    if (replay >= 0 && calls === replay) log(`call ${calls} (seed ${seed}): ${name}`);
    calls++;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    let result;
    try {
      result = run();
    } catch (e) {
      const p = problem(e);
      if (p !== null) failures.push(`call ${calls - 1} ${name}: ${p}: ${describeError(e)}`);
      continue;
    }
    if (result instanceof Promise) {
      const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), callSeconds * 1000).unref());
      const settled = await Promise.race([result.then(() => 'ok', (e) => e), timeout]);
      if (settled === 'timeout') failures.push(`call ${calls - 1} ${name}: the promise did not settle in ${callSeconds} s`);
      else if (settled !== 'ok') {
        const p = problem(settled);
        if (p !== null) failures.push(`call ${calls - 1} ${name}: rejected with ${p}: ${describeError(settled)}`);
      }
    }
    if (calls % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
    if (distinct.size >= 50) break;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const reason of unhandled) failures.push(`unhandled rejection: ${describeError(reason)}`);
  worker.terminate();
  for (const x of [iris, smallData, unlabeled, forest, smallForest, table]) x.dispose();
  const lines = [...distinct.values()];
  lines.push(`js_boundary: seed ${seed}, ${calls} calls of ${counts.size} functions in ${((Date.now() - start) / 1000).toFixed(0)} s, ` +
    `${failureCount} failure(s), ${distinct.size} distinct`);
  parentPort.postMessage({ type: 'done', text: lines.join('\n'), failures: failureCount });
}
