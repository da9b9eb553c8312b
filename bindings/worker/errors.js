// The errors a job rejects with on the caller's side: the abort reason, an error sent back by the worker
// thread (revived as the class it had there), and calls on a disposed RemoteForest.
import { UrnforestError } from 'urnforest';

/** The error an aborted job rejects with: the signal's reason, else a DOMException named 'AbortError'. */
export function abortError(signal) {
  if (signal.reason !== undefined) return signal.reason;
  return new DOMException('The operation was aborted', 'AbortError');
}

/** An error from the thread's {name, message, code?, line?, column?} as UrnforestError, TypeError, RangeError or Error. */
export function reviveError(error) {
  if (error.name === 'UrnforestError') {
    return new UrnforestError(error.code, error.message, { line: error.line ?? 0, column: error.column ?? 0 });
  }
  const Kind = { TypeError, RangeError }[error.name] ?? Error;
  const e = new Kind(error.message);
  if (Kind === Error && error.name) e.name = error.name;
  return e;
}

/** The Error (code 'RemoteDisposed') of a call on a disposed RemoteForest. */
export function disposedError(what) {
  const e = new Error(`${what}: this RemoteForest has been disposed; load the model again`);
  e.code = 'RemoteDisposed';
  return e;
}
