// Background work the student can see and stop: the top bar says which job the worker is running and for
// how long (the library reports no fraction for these jobs: fitting a prior, building a halting table), with
// a Cancel button. Cancelling aborts the running jobs through the worker's job control (AbortSignal): the
// library stops the worker thread and the next job starts a fresh one with the same model and data.

const $ = (id) => document.getElementById(id);

/**
 * `remote` (a RemoteForest) as seen by one job: every method call gets `{signal}` as its job control, the
 * last parameter of each RemoteForest method (remote_forest.js), so that the job can be aborted.
 */
export function withSignal(remote, signal) {
  return new Proxy(remote, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function' || typeof key !== 'string' || key.startsWith('_') || key === 'dispose') return value;
      return (...args) => {
        const full = args.slice(0, value.length - 1);
        while (full.length < value.length - 1) full.push(undefined);
        return value.apply(target, [...full, { signal }]);
      };
    },
  });
}

/** The running jobs: label, start time and AbortController, in the order they started. */
const running = [];
let ticker = null;
let stopped = '';

function seconds(ms) { return `${Math.floor(ms / 1000)} s`; }

/** Redraws the work bar: the oldest running job's label and time, or the last cancellation, or nothing. */
function render() {
  const bar = $('work-bar');
  const job = running[0];
  document.body.dataset.computing = job ? 'yes' : 'no';
  if (job) {
    const more = running.length > 1 ? ` (and ${running.length - 1} more job${running.length > 2 ? 's' : ''})` : '';
    $('work').textContent = `Working in the background: ${job.label}${more}, ${seconds(performance.now() - job.started)} so far.`;
  } else {
    $('work').textContent = stopped;
  }
  $('work-cancel').hidden = !job;
  bar.hidden = !job && !stopped;
  if (job && ticker === null) ticker = setInterval(render, 1000);
  if (!job && ticker !== null) { clearInterval(ticker); ticker = null; }
}

/** Registers a job that started; returns {signal, done()} (done() when it settles, whatever the outcome). */
export function startJob(label) {
  const job = { label, started: performance.now(), controller: new AbortController() };
  running.push(job);
  stopped = '';
  render();
  return {
    signal: job.controller.signal,
    done() {
      const i = running.indexOf(job);
      if (i >= 0) running.splice(i, 1);
      render();
    },
  };
}

/** Aborts every running job and says so in the work bar. */
export function cancelAll() {
  if (running.length === 0) return;
  const labels = [...new Set(running.map((j) => j.label))].join('; ');
  const after = seconds(performance.now() - running[0].started);
  for (const job of running.splice(0)) job.controller.abort(Object.assign(new Error('cancelled'), { code: 'Cancelled' }));
  stopped = `Cancelled after ${after}: ${labels}. The views that needed it stay empty; change the rule, α or the row to ask again.`;
  render();
}

/** True for the rejection of a job that cancelAll stopped. */
export function isCancelled(e) { return e?.code === 'Cancelled'; }

export function createWorkBar() {
  $('work-cancel').addEventListener('click', cancelAll);
  render();
}
