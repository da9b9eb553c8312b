// Starting the worker thread: a Web Worker (browsers, bundlers) or a Node `worker_threads` Worker running
// worker_thread.js, which sits next to the built dist/worker.js; both behind one small interface.
export const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null &&
  typeof window === 'undefined';

const NODE_WORKER_FILE = './worker_thread.js';

/**
 * Starts a worker running `url` (default: worker_thread.js next to this module, once bundled) and resolves
 * to {post(message, transfer), terminate(), busy(flag)}. `onMessage(data)` gets every message;
 * `onFailure(error)` a failure to start, a script error or an exit.
 */
export async function spawn(url, onMessage, onFailure) {
  if (isNode) {
    const { Worker } = await import(/* @vite-ignore */ 'node:worker_threads');
    // Not the `new URL('literal', import.meta.url)` form: bundlers would copy the file as an asset.
    const worker = new Worker(url ?? new URL(NODE_WORKER_FILE, import.meta.url));
    worker.on('message', onMessage);
    worker.on('error', onFailure);
    worker.on('exit', (code) => onFailure(new Error(`urnforest worker exited (code ${code})`)));
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      terminate: () => { worker.removeAllListeners('exit'); worker.terminate(); },
      busy: (flag) => (flag ? worker.ref() : worker.unref()),
    };
  }
  // The literal `new Worker(new URL(..., import.meta.url), {type: 'module'})` lets bundlers (Vite,
  // webpack 5) find and emit the worker script.
  const worker = url !== undefined
    ? new Worker(url, { type: 'module' })
    : new Worker(new URL('./worker_thread.js', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => onMessage(event.data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    onFailure(new Error(`urnforest worker failed: ${event.message ?? 'script error'}`));
  };
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    terminate: () => worker.terminate(),
    busy: () => {},
  };
}
