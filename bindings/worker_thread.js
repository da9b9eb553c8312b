// urnforest/worker: the script that runs inside a Web Worker or a Node worker_threads Worker.
// Not a public entry: bindings/worker.js starts it. One job at a time; messages:
//   in:  {id, op: 'train' | 'haltingTable' | 'expectedCost', ...arguments}
//   out: {id, type: 'progress', stage, fraction} | {id, type: 'result', value} | {id, type: 'error', error}
// Results are plain data (model / table bytes, numbers, typed arrays): wasm handles cannot cross threads.
// Keep in sync with bindings/worker.js.
import { init, Dataset, Forest, HaltingTable, trainForest, haltingTable } from './index.js';

let post;
let onMessage;
if (typeof process === 'object' && process.versions && process.versions.node && typeof self === 'undefined') {
  const { parentPort } = await import(/* @vite-ignore */ 'node:worker_threads');
  post = (message, transfer) => parentPort.postMessage(message, transfer);
  onMessage = (handler) => parentPort.on('message', handler);
} else {
  post = (message, transfer) => self.postMessage(message, transfer);
  onMessage = (handler) => { self.onmessage = (event) => handler(event.data); };
}

const uf = await init();

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
        return { value: { bytes, oobError: forest.oobError, numTrees: forest.numTrees }, transfer: [bytes.buffer] };
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

onMessage((message) => {
  const { id, op } = message;
  const progress = (stage, fraction) => post({ id, type: 'progress', stage, fraction });
  try {
    if (!Object.hasOwn(jobs, op)) throw new TypeError(`unknown worker operation '${op}'`);
    const { value, transfer } = jobs[op](message, progress);
    post({ id, type: 'result', value }, transfer);
  } catch (e) {
    post({ id, type: 'error', error: serializeError(e) });
  }
});
post({ type: 'ready' });
