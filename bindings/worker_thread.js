// urnforest/worker: the script that runs inside a Web Worker or a Node worker_threads Worker.
// Not a public entry: bindings/worker/ (built into dist/worker.js) starts it. One job at a time; messages:
//   out: {type: 'listening'} first; in: {op: 'init', wasm} (init's wasm option, undefined: its default);
//   out: {type: 'ready' | 'failed'}
//   in:  {id, op: 'train' | 'trainPart' | 'mergeParts' | 'haltingTable' | 'expectedCost' | 'experiment', ...arguments}
//   in:  {id, op: 'session', session, method, args, restore?}: a call on a model held here (sessions, below)
//   in:  {id, op: 'release', session}: frees a session's model (with its tables) and data sets
//   out: {id, type: 'progress', stage, fraction} | {id, type: 'result', value} | {id, type: 'error', error}
// Results are plain data (model / table bytes, numbers, typed arrays): wasm handles cannot cross threads.
// Typed arrays in a result are transferred, not copied.
// Keep in sync with bindings/worker/.
import { init, Dataset, Forest, HaltingTable, trainForest, trainForestPart, haltingTable, runExperiment } from './index.js';

// No top-level await here (bundlers build workers as classic scripts): set up, then say 'ready'.
const isNode = typeof process === 'object' && process.versions && process.versions.node && typeof self === 'undefined';
const port = isNode
  ? import(/* @vite-ignore */ 'node:worker_threads').then((m) => ({
    post: (message, transfer) => m.parentPort.postMessage(message, transfer),
    listen: (handler) => m.parentPort.on('message', handler),
  }))
  : Promise.resolve({
    post: (message, transfer) => self.postMessage(message, transfer),
    listen: (handler) => { self.onmessage = (event) => handler(event.data); },
  });
let post;

function serializeError(e) {
  if (e instanceof Error) {
    return { name: e.name, message: e.message, code: e.code, line: e.line, column: e.column };
  }
  return { name: 'Error', message: String(e) };
}

// A Dataset from the job's `data`: {csv, options} or {x, options} (Dataset.fromArrays), of the
// given `rows` only when data.rows is set. `forest`: the session's model, for {schemaOfModel: true}.
function loadDataset(data, forest = null) {
  if (data === null || typeof data !== 'object') throw new TypeError('data must be {csv, options?} or {x, options}');
  let all;
  if (typeof data.csv === 'string' || data.csv instanceof Uint8Array || data.csv instanceof ArrayBuffer) {
    if (data.schemaOfModel !== undefined && typeof data.schemaOfModel !== 'boolean') {
      throw new TypeError('data.schemaOfModel must be a boolean');
    }
    if (data.schemaOfModel && forest === null) throw new TypeError('data.schemaOfModel needs a loaded model (a session)');
    all = Dataset.fromCSV(data.csv, data.schemaOfModel ? { ...data.options, schemaOf: forest } : data.options);
  } else if (data.x !== undefined) {
    all = Dataset.fromArrays(data.x, data.options);
  } else {
    throw new TypeError('data must be {csv, options?} or {x, options}');
  }
  if (data.rows === undefined) return all;
  try {
    return all.subset(data.rows);
  } finally {
    all.dispose();
  }
}

// Every distinct ArrayBuffer behind the typed arrays among `value`'s own properties (or `value`).
function buffersOf(value) {
  const buffers = new Set();
  const add = (v) => { if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) buffers.add(v.buffer); };
  add(value);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const v of Object.values(value)) add(v);
  }
  return [...buffers];
}

// Table options `options` with an onProgress that reports stage 'table' (a full table's build
// steps); anything but a plain object is passed on as is, for the API to refuse.
function withTableProgress(options, progress) {
  if (options === null || typeof options !== 'object') return options;
  const proto = Object.getPrototypeOf(options);
  if (proto !== Object.prototype && proto !== null) return options;
  return { ...options, onProgress: (done, total) => { progress('table', done / total); } };
}

const jobs = {
  train({ data, options }, progress) {
    progress('load', 0);
    const dataset = loadDataset(data);
    try {
      progress('train', 0);
      const forest = trainForest(dataset, {
        ...options,
        onProgress: (done, total) => { progress('train', done / total); },
      });
      try {
        progress('serialize', 1);
        const bytes = forest.toBytes();
        const value = { bytes, oobError: forest.oobError, numTrees: forest.numTrees };
        if (forest.emphasisSelection !== undefined) value.emphasisSelection = forest.emphasisSelection;
        return { value, transfer: [bytes.buffer] };
      } finally {
        forest.dispose();
      }
    } finally {
      dataset.dispose();
    }
  },

  // Trees first .. first + count - 1 of the forest `train` would grow (one part of a run spread over
  // workers): {bytes} of the part.
  trainPart({ data, options, first, count }, progress) {
    progress('load', 0);
    const dataset = loadDataset(data);
    try {
      progress('train', 0);
      const part = trainForestPart(dataset, { ...options, onProgress: (done) => { progress('train', done / count); } },
        { first, count });
      try {
        const bytes = part.toBytes();
        return { value: { bytes }, transfer: [bytes.buffer] };
      } finally {
        part.dispose();
      }
    } finally {
      dataset.dispose();
    }
  },

  // The whole forest from its parts' bytes, as `train` returns it.
  mergeParts({ parts }, progress) {
    progress('merge', 0);
    const forest = Forest.mergeParts(parts);
    try {
      const bytes = forest.toBytes();
      return { value: { bytes, oobError: forest.oobError, numTrees: forest.numTrees }, transfer: [bytes.buffer] };
    } finally {
      forest.dispose();
    }
  },

  haltingTable({ model, options: given }, progress) {
    progress('table', 0);
    const options = withTableProgress(given, progress);
    let table;
    if (model === undefined) {
      table = haltingTable(options);
    } else {
      const forest = Forest.fromBytes(model);
      try {
        table = forest.haltingTable(options);
      } finally {
        forest.dispose();
      }
    }
    try {
      progress('table', 1);
      const bytes = table.toBytes();
      const binary = table.numClasses === 2 ? [table.binaryThresholds(0), table.binaryThresholds(1)] : null;
      return {
        value: { bytes, rule: table.rule, alpha: table.alpha, numTrees: table.numTrees, numClasses: table.numClasses, binaryThresholds: binary },
        transfer: [bytes.buffer],
      };
    } finally {
      table.dispose();
    }
  },

  expectedCost({ model, options }, progress) {
    progress('expectedCost', 0);
    const forest = Forest.fromBytes(model);
    try {
      const value = forest.expectedCost(options);
      progress('expectedCost', 1);
      return { value, transfer: [] };
    } finally {
      forest.dispose();
    }
  },
};

jobs.experiment = ({ options }, progress) => {
  progress('load', 0);
  const dataset = typeof options.data === 'string' ? null : loadDataset(options.data);
  try {
    const value = runExperiment({ ...options, data: dataset ?? options.data }, {
      onProgress: (done, total) => { progress('experiment', total === 0 ? 1 : done / total); },
    });
    return { value, transfer: [] };
  } finally {
    dataset?.dispose();
  }
};

// ---- sessions: a model that stays in this worker ------------------------------------------------
// A session holds a Forest and named Datasets (addData); its tally queries read the forest's own
// bounded table cache (Forest.tallyAnswers). The caller's side (RemoteForest, bindings/worker/remote_forest.js) numbers sessions and, when
// this worker is a fresh one (after an abort terminated the previous one), sends `restore`: the model
// bytes and the calls that rebuild its state (storeTable per stored table, addData per live data set).
const sessions = new Map();

function session(id) {
  const s = sessions.get(id);
  if (s === undefined) throw new Error(`urnforest worker: no model is loaded for RemoteForest #${id}`);
  return s;
}

function release(id) {
  const s = sessions.get(id);
  if (s === undefined) return;
  sessions.delete(id);
  for (const data of s.data.values()) data.dispose();
  s.forest.dispose();
}

function modelInfo(forest) {
  return {
    numTrees: forest.numTrees,
    numClasses: forest.numClasses,
    numFeatures: forest.numFeatures,
    numNodes: forest.numNodes,
    oobError: forest.oobError,
    classNames: forest.classNames,
    featureNames: forest.featureNames,
    featureTypes: forest.featureTypes,
    learner: forest.learner,
    weighted: forest.treeWeights().length > 0,
    defaultOrder: forest.defaultOrder,
    storedTables: forest.storedTables(),
  };
}

function dataInfo(dataset) {
  return { numRows: dataset.numRows, numFeatures: dataset.numFeatures, hasLabels: dataset.hasLabels, classNames: dataset.classNames };
}

// Runs fn(dataset) on a named data set of the session, or on `data` loaded for this call only.
function withData(s, ref, fn) {
  if (typeof ref === 'string') {
    const dataset = s.data.get(ref);
    if (dataset === undefined) throw new RangeError(`no data set named '${ref}' in this session (addData first)`);
    return fn(dataset);
  }
  const dataset = loadDataset(ref, s.forest);
  try {
    return fn(dataset);
  } finally {
    dataset.dispose();
  }
}

// tallies: n x numClasses, row-major; the answers of the session forest's table for `options` to
// `question` (Forest.tallyAnswers: the table comes from the forest's own bounded cache).
function queryTallies(s, question, options, tallies, progress) {
  return s.forest.tallyAnswers(question, tallies, withTableProgress(options, progress));
}

const methods = {
  load: (s) => modelInfo(s.forest),
  info: (s) => modelInfo(s.forest),
  addData(s, { name, data }, progress) {
    if (typeof name !== 'string') throw new TypeError('addData: name must be a string');
    progress('load', 0);
    const dataset = loadDataset(data, s.forest);
    s.data.get(name)?.dispose();
    s.data.set(name, dataset);
    return dataInfo(dataset);
  },
  dropData(s, { name }) {
    s.data.get(name)?.dispose();
    s.data.delete(name);
  },
  // A halted result's probabilities are a getter of its class (computed on first read): made an own
  // property here, since only own properties cross threads. withoutLabels: the answer without its
  // labels, which the caller rebuilds from classIndex and classNames (a part of a split predict:
  // bindings/worker/parallel_predict.js), so that no string per row crosses threads.
  predict: (s, { data, options, withoutLabels }) => withData(s, data, (d) => {
    const out = s.forest.predict(d, options);
    const own = 'probabilities' in out && !Object.hasOwn(out, 'probabilities') ? { ...out, probabilities: out.probabilities } : out;
    if (withoutLabels !== true) return own;
    const { labels, ...rest } = own;
    return rest;
  }),
  trace: (s, { data, row, options }) => withData(s, data, (d) => s.forest.trace(d, row, options)),
  prior: (s, { rule, options }) => s.forest.prior(rule, options),
  posterior: (s, { tally, options }) => s.forest.posterior(tally, options),
  expectedCost(s, { options }, progress) {
    progress('expectedCost', 0);
    const value = s.forest.expectedCost(options);
    progress('expectedCost', 1);
    return value;
  },
  order: (s, { data, options }) => withData(s, data, (d) => s.forest.order(d, options)),
  errorCurve: (s, { data, order }) => withData(s, data, (d) => s.forest.errorCurve(d, order)),
  storeTable: (s, { options }) => s.forest.storeTable(options),
  storedTables: (s) => s.forest.storedTables(),
  // A table of the session's model as bytes: built for this call (the caller keeps the bytes).
  haltingTable(s, { options }, progress) {
    progress('table', 0);
    const table = s.forest.haltingTable(withTableProgress(options, progress));
    try {
      const bytes = table.toBytes();
      const binary = table.numClasses === 2 ? [table.binaryThresholds(0), table.binaryThresholds(1)] : null;
      return { bytes, rule: table.rule, alpha: table.alpha, numTrees: table.numTrees, numClasses: table.numClasses, binaryThresholds: binary };
    } finally {
      table.dispose();
    }
  },
  halts: (s, { options, tallies }, progress) => queryTallies(s, 'halts', options, tallies, progress),
  confidence: (s, { options, tallies }, progress) => queryTallies(s, 'confidence', options, tallies, progress),
  leader: (s, { options, tallies }, progress) => queryTallies(s, 'leader', options, tallies, progress),
  oobVotes: (s) => s.forest.oobVotes(),
  trainLabels: (s) => s.forest.trainLabels(),
  treeWeights: (s) => s.forest.treeWeights(),
  toBytes: (s) => s.forest.toBytes(),
};

// Loads a session's model and replays the calls that changed it (`log`), on a fresh worker.
function open(id, model, log, progress) {
  progress('load', 0);
  release(id);
  const s = { forest: Forest.fromBytes(model), data: new Map() };
  sessions.set(id, s);
  try {
    for (const { method, args } of log) methods[method](s, args, progress);
  } catch (e) {
    release(id);
    throw e;
  }
  progress('load', 1);
  return s;
}

jobs.session = ({ session: id, method, args, restore }, progress) => {
  if (!Object.hasOwn(methods, method)) throw new TypeError(`unknown session method '${method}'`);
  if (method === 'load') open(id, args.model, [], progress);
  else if (restore !== undefined && !sessions.has(id)) open(id, restore.model, restore.log, progress);
  const value = methods[method](session(id), args ?? {}, progress);
  return { value, transfer: buffersOf(value) };
};

jobs.release = ({ session: id }) => {
  release(id);
  return { value: undefined, transfer: [] };
};

// At most one progress event per this many milliseconds (what a page can draw: ~30 frames a second)
// and per this fraction of a stage, besides each stage's first and last event.
const PROGRESS_MS = 1000 / 30;
const PROGRESS_STEP = 0.01;

// The job's progress reporter, throttled: a stage's first event and its end (fraction 1) always go
// out; in between, an event goes out only when the fraction moved by PROGRESS_STEP and PROGRESS_MS
// have passed since the last one (5,000 trees: not 5,000 events).
function throttledProgress(id) {
  let lastStage = null;
  let lastFraction = 0;
  let lastTime = 0;
  return (stage, fraction) => {
    const now = Date.now();
    if (stage === lastStage && fraction < 1 && (fraction - lastFraction < PROGRESS_STEP || now - lastTime < PROGRESS_MS)) return;
    lastStage = stage;
    lastFraction = fraction;
    lastTime = now;
    post({ id, type: 'progress', stage, fraction });
  };
}

function handle(message) {
  const { id, op } = message;
  const progress = throttledProgress(id);
  try {
    if (!Object.hasOwn(jobs, op)) throw new TypeError(`unknown worker operation '${op}'`);
    const { value, transfer } = jobs[op](message, progress);
    try {
      post({ id, type: 'result', value }, transfer);
    } catch {
      post({ id, type: 'result', value }); // a buffer that cannot move (e.g. wasm memory): copy it
    }
  } catch (e) {
    post({ id, type: 'error', error: serializeError(e) });
  }
}

// Once listening, the thread says 'listening'; the answer, {op: 'init', wasm}, says which wasm to
// instantiate (init's `wasm` option; undefined: init()'s default, the package's asset); then 'ready' (jobs follow) or 'failed'.
// (Asked for, not sent unasked: a message that arrived before this listener could be lost.)
port.then((p) => {
  post = p.post;
  let started = false;
  p.listen((message) => {
    if (started) {
      handle(message);
      return;
    }
    if (message?.op !== 'init') return;
    started = true;
    init(message.wasm === undefined ? undefined : { wasm: message.wasm })
      .then(() => post({ type: 'ready' }), (e) => post({ type: 'failed', error: serializeError(e) }));
  });
  post({ type: 'listening' });
});
