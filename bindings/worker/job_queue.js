// The job queue behind an UrnforestWorker: jobs run one at a time in submission order in one worker
// thread, started on demand. Aborting the running job terminates the thread (the core is synchronous
// there) and the next job starts a fresh one; aborting a queued job just removes it. A session job
// (a call on a RemoteForest) sent to a thread that does not hold that session carries the session's
// restore data (model bytes, stored tables, live data sets), so the thread rebuilds it first.
// A job's arguments are snapshotted when it is submitted (snapshot.js), never read from the caller's
// objects later.
import { control } from './checks.js';
import { abortError, reviveError } from './errors.js';
import { buffersIn, hasShared, snapshot } from './snapshot.js';
import { spawn } from './spawn.js';

export class JobQueue {
  /**
   * `url`: the worker script, undefined for worker_thread.js next to the built module. `wasm`: what the
   * thread instantiates (a postable init({wasm}) source, wasm_option.js; undefined: init()'s default, the asset).
   */
  constructor(url, wasm) {
    this._url = url;
    this._wasm = wasm;
    this._worker = null; // Promise of a spawned worker that said 'ready'.
    this._ready = null; // that worker once it said 'ready' (jobs are then posted synchronously)
    this._queue = [];
    this._active = null;
    this._nextId = 1;
    this.terminated = false;
  }

  /**
   * Queues `message` (its op and arguments) and resolves to the thread's result. The message is read
   * now, never later from the caller's objects: posted at once when the job can start now (postMessage
   * copies it, or with `ctl.transfer` moves its buffers), else snapshotted (snapshot.js) and the snapshot
   * posted when the job starts. `ctl`: the caller's {signal?, onProgress?, transfer?} (checked here: a
   * bad one rejects); `what`: the method name for errors; `extra`: fields of the job ({remote}: a
   * session's job; {onResult(message)}: called with the snapshot before resolving; {owned: true}:
   * `message` is a snapshot already; {keep: true}: the snapshot outlives the job (replayed or shared),
   * so it is always taken and copied to the thread, not transferred).
   */
  submit(message, ctl, what, extra = {}) {
    let c;
    let own;
    try {
      c = control(ctl, what);
      if (this.terminated) throw new Error('UrnforestWorker has been terminated');
      if (c.signal?.aborted) throw abortError(c.signal);
      const transfer = c.transfer === true;
      if (extra.owned) {
        own = { value: message, buffers: extra.keep ? [] : buffersIn(message) };
      } else if (!extra.keep && this._postsNow() && !hasShared(message)) {
        // Posted before submit returns: postMessage's own copy is the snapshot (no second copy).
        own = { value: message, buffers: transfer ? buffersIn(message) : [] };
      } else {
        own = snapshot(message, transfer, what);
      }
    } catch (e) {
      return Promise.reject(e);
    }
    const { signal, onProgress } = c;
    // The snapshot's buffers move to the thread when the job is posted, unless the snapshot is kept.
    const transfer = extra.keep ? [] : own.buffers;
    return new Promise((resolve, reject) => {
      const job = { id: this._nextId++, message: own.value, transfer, what, onProgress, resolve, reject, signal, onAbort: null, ...extra };
      if (signal) {
        job.onAbort = () => this._abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      const finish = (fn) => (value) => {
        if (signal) signal.removeEventListener('abort', job.onAbort);
        fn(value);
      };
      job.resolve = finish(resolve);
      job.reject = finish(reject);
      this._queue.push(job);
      this._pump();
    });
  }

  /** True when a thread has been started (or is starting) for this queue and not stopped since. */
  get started() { return this._worker !== null; }

  /** Rejects the queued (not running) jobs of `remote` with makeError(what). */
  dropQueued(remote, makeError) {
    for (const job of this._queue.filter((j) => j.remote === remote)) {
      this._queue.splice(this._queue.indexOf(job), 1);
      job.reject(makeError(job.what));
    }
  }

  /** Stops the thread; running and queued jobs reject with an AbortError. Idempotent. */
  terminate() {
    if (this.terminated) return;
    this.terminated = true;
    const error = new DOMException('The worker was terminated', 'AbortError');
    for (const job of this._queue) job.reject(error);
    this._queue = [];
    if (this._active !== null) {
      this._active.reject(error);
      this._active = null;
    }
    this._kill();
  }

  _abort(job) {
    this._cancel(job, abortError(job.signal));
  }

  // Rejects `job` with `error`: the running job's thread is terminated, a queued job is removed.
  _cancel(job, error) {
    if (this._active === job) {
      this._active = null;
      this._kill();
      job.reject(error);
      this._pump();
    } else {
      const i = this._queue.indexOf(job);
      if (i >= 0) {
        this._queue.splice(i, 1);
        job.reject(error);
      }
    }
  }

  // True when a job submitted now is posted before submit returns: the thread is ready and idle.
  _postsNow() {
    return this._ready !== null && this._active === null && this._queue.length === 0 && !this.terminated;
  }

  _kill() {
    const worker = this._worker;
    this._worker = null;
    this._ready = null;
    if (worker !== null) worker.then((w) => w.terminate(), () => {});
  }

  _ensureWorker() {
    if (this._worker === null) {
      let ready;
      let failed;
      const promise = new Promise((res, rej) => { ready = res; failed = rej; });
      let spawned = null;
      let listening = false;
      const sendInit = () => spawned.post({ op: 'init', wasm: this._wasm });
      const onMessage = (m) => {
        if (m.type === 'listening') {
          // The thread's listener is set: tell it which wasm to load; it answers 'ready' or 'failed'.
          listening = true;
          if (spawned !== null) sendInit();
          return;
        }
        if (m.type === 'ready') {
          ready(spawned);
          if (this._worker === promise) this._ready = spawned;
          return;
        }
        if (m.type === 'failed') {
          spawned?.terminate(); // a thread without a module: end it, or it would keep the process alive
          onFailure(reviveError(m.error));
          return;
        }
        this._onMessage(m);
      };
      const onFailure = (e) => {
        failed(e);
        if (this._worker === promise) {
          this._worker = null;
          this._ready = null;
          const job = this._active;
          this._active = null;
          if (job !== null) job.reject(e);
          this._pump();
        }
      };
      spawn(this._url, onMessage, onFailure).then((w) => {
        w.sessions = new Set(); // ids of the RemoteForests this worker holds
        spawned = w;
        if (listening) sendInit();
      }, onFailure);
      this._worker = promise;
      promise.catch(() => {});
    }
    return this._worker;
  }

  _pump() {
    if (this._active !== null || this._queue.length === 0 || this.terminated) return;
    const job = this._queue.shift();
    this._active = job;
    if (this._ready !== null) {
      this._post(job, this._ready);
      return;
    }
    this._ensureWorker().then((w) => {
      if (this._active === job) this._post(job, w);
    }, (e) => {
      if (this._active === job) {
        this._active = null;
        job.reject(e);
        this._pump();
      }
    });
  }

  // Sends the active `job` to the ready thread `w`, with the session's restore data when `w` lacks it.
  _post(job, w) {
    const message = { id: job.id, ...job.message };
    const sid = message.session;
    if (sid !== undefined && !w.sessions.has(sid)) {
      if (message.op === 'release') {
        this._active = null;
        job.resolve(undefined);
        this._pump();
        return;
      }
      if (message.method !== 'load') message.restore = job.remote._restore();
    }
    try {
      w.post(message, job.transfer);
    } catch (e) {
      // Not structured-cloneable (a function, a Dataset, ...): this job fails, the worker is fine.
      this._active = null;
      job.reject(new TypeError(`${job.what}: its arguments cannot be sent to the worker (${e.message})`));
      this._pump();
      return;
    }
    if (sid !== undefined) {
      if (message.op === 'release') w.sessions.delete(sid);
      else w.sessions.add(sid);
    }
    job.opens = sid !== undefined && (message.method === 'load' || message.restore !== undefined) ? w : null;
    w.busy(true);
  }

  _onMessage(m) {
    const job = this._active;
    if (job === null || m.id !== job.id) return;
    if (m.type === 'progress') {
      if (job.onProgress) {
        try {
          job.onProgress({ stage: m.stage, fraction: m.fraction });
        } catch (e) {
          // As on the main thread, a throwing onProgress cancels its job, which rejects with what it
          // threw (never an uncaught exception, which would end a Node process).
          this._cancel(job, e);
        }
      }
      return;
    }
    this._active = null;
    this._ready?.busy(false);
    // After a failed load or restore the session may be missing: the next call sends the restore again.
    if (m.type !== 'result' && job.opens) job.opens.sessions.delete(job.message.session);
    if (m.type === 'result') {
      job.onResult?.(job.message);
      job.resolve(m.value);
    } else {
      job.reject(reviveError(m.error));
    }
    this._pump();
  }
}
