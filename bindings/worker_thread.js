// urnforest/worker: the script that runs inside a Web Worker or a Node worker_threads Worker.
// Not a public entry: bindings/worker.js starts it. One job at a time; messages:
//   in:  {id, op: 'train' | 'haltingTable' | 'expectedCost' | 'experiment', ...arguments}
//   out: {id, type: 'progress', stage, fraction} | {id, type: 'result', value} | {id, type: 'error', error}
// Results are plain data (model / table bytes, numbers, typed arrays): wasm handles cannot cross threads.
// Keep in sync with bindings/worker.js.
import { init, Dataset, Forest, HaltingTable, trainForest, haltingTable, runExperiment } from './index.js';

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

// A Dataset from the job's `data`: {csv, options} or {x, options} (Dataset.fromArrays).
function loadDataset(data) {
  if (data === null || typeof data !== 'object') throw new TypeError('data must be {csv, options?} or {x, options}');
  if (typeof data.csv === 'string') return Dataset.fromCSV(data.csv, data.options);
  if (data.x !== undefined) return Dataset.fromArrays(data.x, data.options);
  throw new TypeError('data must be {csv, options?} or {x, options}');
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

  haltingTable({ model, options }, progress) {
    progress('table', 0);
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

function handle(message) {
  const { id, op } = message;
  const progress = (stage, fraction) => post({ id, type: 'progress', stage, fraction });
  try {
    if (!Object.hasOwn(jobs, op)) throw new TypeError(`unknown worker operation '${op}'`);
    const { value, transfer } = jobs[op](message, progress);
    post({ id, type: 'result', value }, transfer);
  } catch (e) {
    post({ id, type: 'error', error: serializeError(e) });
  }
}

Promise.all([port, init()]).then(([p]) => {
  post = p.post;
  p.listen(handle);
  post({ type: 'ready' });
}, (e) => port.then((p) => p.post({ type: 'failed', error: serializeError(e) })));
