// One training run spread over several worker threads: a random forest's or bagging's trees are
// independent (tree t draws from (seed, t)), so each thread grows a contiguous block of them
// (trainForestPart) and one thread joins the blocks (Forest.mergeParts) into the bytes a single
// thread would have produced. No SharedArrayBuffer or cross-origin isolation is needed.
import { control } from './checks.js';
import { abortError } from './errors.js';

/** Fewest trees worth a thread of their own (below, starting and feeding a worker costs more). */
export const MIN_TREES_PER_PART = 8;

/**
 * How many parts to split a `train` job with `options` into, given `threads` threads: 1 unless the
 * ensemble is 'rf' or 'bagging' (the default is 'rf') with an integer tree count of at least
 * 2 * MIN_TREES_PER_PART; at most trees / MIN_TREES_PER_PART parts. The upper bound of the count is
 * the core's: each part's trainForestPart refuses a count above it with trainForest's error.
 */
export function partsFor(options, threads) {
  if (threads <= 1 || options === null || typeof options !== 'object') return 1;
  const ensemble = options.ensemble ?? 'rf';
  if (ensemble !== 'rf' && ensemble !== 'bagging') return 1;
  const trees = options.trees ?? 101;
  if (!Number.isInteger(trees) || trees < 2 * MIN_TREES_PER_PART) return 1;
  return Math.min(threads, Math.floor(trees / MIN_TREES_PER_PART));
}

/** Contiguous blocks {first, count} of `trees` trees over `parts` parts, sizes differing by at most 1. */
export function blocksOf(trees, parts) {
  const blocks = [];
  let first = 0;
  for (let i = 0; i < parts; i++) {
    const count = Math.floor(trees / parts) + (i < trees % parts ? 1 : 0);
    blocks.push({ first, count });
    first += count;
  }
  return blocks;
}

/**
 * Trains `data` with `options` (the caller's snapshot, shared by the parts: each part is sent a copy) as
 * `queues.length` parts, one per job queue (queues[0] merges), and resolves to train's result
 * {bytes, oobError, numTrees}. Progress: stage 'train' with the fraction
 * of all trees grown, then 'merge'. Aborting `ctl.signal`, or a failed part, stops every part.
 */
export async function trainInParts(queues, data, options, ctl) {
  const c = control(ctl, 'train');
  if (c.signal?.aborted) throw abortError(c.signal);
  const trees = options.trees ?? 101;
  const blocks = blocksOf(trees, queues.length);
  const inner = new AbortController();
  const forward = () => inner.abort(c.signal.reason);
  c.signal?.addEventListener('abort', forward, { once: true });
  const grown = new Array(blocks.length).fill(0);
  let reported = -1;
  const report = (i) => ({ stage, fraction }) => {
    if (stage !== 'train' || c.onProgress === undefined || inner.signal.aborted) return;
    grown[i] = fraction * blocks[i].count;
    const total = grown.reduce((a, b) => a + b, 0) / trees;
    if (total - reported < 0.01 && total < 1) return; // at most about 100 events per run
    reported = total;
    try {
      c.onProgress({ stage: 'train', fraction: total });
    } catch (e) {
      // As for one thread, a throwing onProgress cancels the run, which rejects with what it threw.
      inner.abort(e);
    }
  };
  try {
    const parts = await Promise.all(blocks.map((b, i) => queues[i].submit(
      { op: 'trainPart', data, options, first: b.first, count: b.count },
      { signal: inner.signal, onProgress: report(i) }, 'train', { owned: true, keep: true }).catch((e) => {
      inner.abort(e);
      throw e;
    })));
    c.onProgress?.({ stage: 'merge', fraction: 1 });
    return await queues[0].submit({ op: 'mergeParts', parts: parts.map((p) => p.bytes) },
      { signal: inner.signal }, 'train', { owned: true });
  } catch (e) {
    // The first failure wins; the parts it stopped reject with its error as their abort reason.
    if (c.signal?.aborted) throw abortError(c.signal);
    throw e;
  } finally {
    c.signal?.removeEventListener('abort', forward);
  }
}
