// Module Web Worker: trains a forest off the main thread so the page stays responsive.
// It imports the same public API as the page (/dist/index.js, wasm embedded: no extra request), parses the
// CSV text it is given (the text was read locally by the page and never leaves the browser), trains,
// posts progress while the trees grow and finally the model bytes (transferred, not copied).
//   in:  {id, csv, target, rows (Uint32Array | null), options: {ensemble, trees, mtry, seed}}
//   out: {id, type: 'progress', done, total} … then {id, type: 'done', bytes, trainMs, parseMs}
//        or {id, type: 'error', code, message, line, column}
import { init } from '/dist/index.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, csv, target, rows, options } = event.data;
  let all = null;
  let train = null;
  let forest = null;
  try {
    const uf = await ready;
    const t0 = performance.now();
    all = uf.Dataset.fromCSV(csv, target ? { target } : {});
    train = rows ? all.subset(rows) : all;
    const parseMs = performance.now() - t0;
    let last = 0;
    const t1 = performance.now();
    forest = uf.trainForest(train, {
      ...options,
      onProgress: (done, total) => {
        const now = performance.now();
        if (now - last > 40 || done === total) {
          last = now;
          self.postMessage({ id, type: 'progress', done, total });
        }
      },
    });
    const trainMs = performance.now() - t1;
    const bytes = forest.toBytes();
    self.postMessage({ id, type: 'done', bytes, trainMs, parseMs }, [bytes.buffer]);
  } catch (e) {
    self.postMessage({ id, type: 'error', code: e.code ?? e.name, message: e.message, line: e.line ?? 0, column: e.column ?? 0 });
  } finally {
    forest?.dispose();
    if (train && train !== all) train.dispose();
    all?.dispose();
  }
};
