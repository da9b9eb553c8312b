// The page's side of the compute worker (web/worker.js): one job at a time, in order, so the page's thread
// never builds a halting table or runs a sweep. Jobs carry a `lane`: a newer job in the same lane drops the
// older one if it has not started yet (its promise rejects with an AbortError, which callers ignore), so
// clicking through rules never queues up seconds of stale work. Every job is tagged with the model it was
// asked for; `stale(job)` tells a caller the model changed meanwhile.

/** An AbortError: the job was superseded or the model changed before it ran. */
export function isAbort(e) { return e?.name === 'AbortError'; }

export function createCompute({ onBusy = () => {} } = {}) {
  let worker = null;
  let nextId = 1;
  const queue = [];
  let active = null;

  function getWorker() {
    if (!worker) {
      worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      worker.onmessage = (event) => {
        const msg = event.data;
        if (!active || msg.id !== active.id) return;
        const job = active;
        active = null;
        if (msg.type === 'error') job.reject(Object.assign(new Error(msg.message), { code: msg.code, line: msg.line, column: msg.column }));
        else job.resolve(msg);
        pump();
      };
      worker.onerror = (e) => {
        e.preventDefault();
        const job = active;
        active = null;
        worker = null;
        job?.reject(Object.assign(new Error(e.message || 'the compute worker failed'), { code: 'Worker' }));
        pump();
      };
    }
    return worker;
  }

  function abort(job) {
    job.reject(new DOMException(`${job.message.op} superseded`, 'AbortError'));
  }

  function pump() {
    onBusy(active !== null || queue.length > 0, active?.message.op ?? queue[0]?.message.op ?? null);
    if (active || !queue.length) return;
    active = queue.shift();
    getWorker().postMessage({ id: active.id, ...active.message }, active.transfer);
    onBusy(true, active.message.op);
  }

  return {
    /**
     * Posts `message` ({op, ...}) and resolves to the worker's 'done' message. `lane`: a later job in the
     * same lane drops this one while it waits. `transfer`: buffers to move instead of copy.
     */
    run(message, { lane = null, transfer = [] } = {}) {
      return new Promise((resolve, reject) => {
        if (lane !== null) {
          for (let i = queue.length - 1; i >= 0; i--) {
            if (queue[i].lane === lane) { abort(queue[i]); queue.splice(i, 1); }
          }
        }
        queue.push({ id: nextId++, message, lane, transfer, resolve, reject });
        pump();
      });
    },
    /** Drops every job that has not started yet (a new model is coming). */
    clear() {
      for (const job of queue.splice(0)) abort(job);
      pump();
    },
    get busy() { return active !== null || queue.length > 0; },
  };
}
