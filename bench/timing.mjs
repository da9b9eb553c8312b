// Timing helpers shared by the benchmark scripts (bench/run.mjs, bench/halted_share.mjs).
import { performance } from 'node:perf_hooks';

/** Median of the non-null numbers of `xs`; null when there are none (a peer that did not run). */
export const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

/** Milliseconds per call of `f`, after a warm-up, over at least 20 ms of calls. */
export function msPerCall(f) {
  // Warm-up: V8 runs wasm functions in Liftoff first and tiers hot ones up to TurboFan (at a call,
  // never inside a running call); a library in use runs the optimised code, so time that: first at
  // least 2 calls and 50 ms.
  const warm = performance.now();
  for (let i = 0; i < 2 || performance.now() - warm < 50; i++) f();
  return msPerCallWithin(f, 20);
}

/** Milliseconds per call of `f` over one window of at least `minMs` of back-to-back calls (no warm-up). */
export function msPerCallWithin(f, minMs) {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    f();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return elapsed / calls;
}

/** CPU milliseconds of this process (every thread) so far. */
export const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * CPU milliseconds per call of `f` after a warm-up of at least one call and `minMs` (V8 tiers wasm up
 * at calls), over at least `minMs` of CPU time. On a
 * shared machine CPU time leaves out the time other processes held the cores, which wall-clock
 * windows of a few ms do not.
 */
export function cpuMsPerCall(f, minMs = 50) {
  const warm = cpuMs();
  do f(); while (cpuMs() - warm < minMs);
  let calls = 0;
  const start = cpuMs();
  let elapsed = 0;
  do {
    f();
    calls++;
    elapsed = cpuMs() - start;
  } while (elapsed < minMs);
  return elapsed / calls;
}
