// One large predict spread over a worker's threads: the rows are cut into contiguous parts, each part
// predicted in its own thread by the same model (a session kept there), with predict's `firstRow` set
// to the part's first row, so that a random query order draws each row's stream from its index in
// the whole batch, as one call would (and as the native threads do). The parts' answers are joined in
// row order into the answer one thread gives, field for field.
//
// Only data that loads the same whatever the cut is split: {x: Float32Array, options: {rows, cols,
// featureNames?}} with x.length = rows * cols and no infinite value (the row-major matrix of
// Dataset.fromArrays, without labels). Anything else (CSV, a named data set, row subsets, labels, a
// bad shape) is predicted by one thread, so that its errors name the rows as one thread does.
import { control } from './checks.js';
import { abortError } from './errors.js';
import { blocksOf } from './parallel_train.js';

/**
 * The least work, in rows x trees, given a thread of its own: on an idle 2-core machine a split into two
 * halves of 50,000 (500 rows of 101 trees each) lost to one thread and halves of 101,000 won (1.35-1.84 x);
 * parts of at least 250,000 keep a margin (docs/benchmarks.md, "Predict over a worker's threads").
 */
export const MIN_WORK_PER_PART = 250_000;

const DATA_KEYS = new Set(['x', 'options']);
const MATRIX_KEYS = new Set(['rows', 'cols', 'featureNames']);

function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function onlyKeys(object, allowed) {
  for (const key of Object.keys(object)) if (!allowed.has(key)) return false;
  return true;
}

// True when `x` holds +-Infinity (Dataset.fromArrays refuses it, naming the row: left to one thread).
function hasInfinity(x) {
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (v === Infinity || v === -Infinity) return true;
  }
  return false;
}

/**
 * How many parts to cut predict(data, options) into, given `threads` threads and `numTrees` trees: 1
 * unless `data` is a splittable matrix (file comment) and `options` is undefined or a plain object
 * whose firstRow, if any, is a non-negative safe integer and whose rule is not 'alpha1' or 'margin'; at most rows x trees / MIN_WORK_PER_PART
 * parts, and no more than rows.
 */
export function predictPartsFor(data, options, threads, numTrees) {
  if (threads <= 1 || !isPlainObject(data) || !onlyKeys(data, DATA_KEYS)) return 1;
  const { x, options: shape } = data;
  if (!(x instanceof Float32Array) || !isPlainObject(shape) || !onlyKeys(shape, MATRIX_KEYS)) return 1;
  const { rows, cols } = shape;
  if (!Number.isSafeInteger(rows) || !Number.isSafeInteger(cols) || rows < 1 || cols < 1 || x.length !== rows * cols) return 1;
  if (options !== undefined) {
    if (!isPlainObject(options)) return 1;
    const first = options.firstRow;
    if (first !== undefined && !(Number.isSafeInteger(first) && first >= 0 && first + rows <= Number.MAX_SAFE_INTEGER)) return 1;
    // The exact exit and the margin rule on an imported model decide from a call's first rows
    // whether halting pays (model/soft_exact.h); parts would decide apart and report other trees.
    if (options.rule === 'alpha1' || options.rule === 'margin') return 1;
  }
  const parts = Math.min(threads, rows, Math.floor((rows * numTrees) / MIN_WORK_PER_PART));
  if (parts <= 1 || hasInfinity(x)) return 1;
  return parts;
}

/**
 * The parts' jobs: for each of `parts` contiguous row blocks, {data, options, withoutLabels: true} with
 * its own copy of the block's rows (to be transferred to its thread) and, when `options` is given,
 * firstRow shifted to the block's first row; each part answers without labels (joinAnswers rebuilds
 * them). `x`: the caller's matrix or the library's snapshot of it.
 */
export function cutRows(x, shape, options, parts) {
  const { cols } = shape;
  return blocksOf(shape.rows, parts).map(({ first, count }) => ({
    data: { x: x.slice(first * cols, (first + count) * cols), options: { ...shape, rows: count } },
    options: options === undefined ? undefined : { ...options, firstRow: (options.firstRow ?? 0) + first },
    withoutLabels: true,
  }));
}

function concatTyped(arrays) {
  let length = 0;
  for (const a of arrays) length += a.length;
  const out = new arrays[0].constructor(length);
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/**
 * The answer of the whole batch from its parts' answers (without labels), in row order: `labels`
 * rebuilt from classIndex and classNames (as the main thread's reader builds them), typed arrays (per
 * row or per row and class) joined; meanTrees and disagreement computed again over all rows as the
 * core computes them (an integer sum divided by the rows; differing labels over the rows), exact for
 * any cut; every other field (classNames, rule, alpha, trees, vote, lambda, certificate, table) as
 * the first part has it (the same in every part, but for the table's source and time).
 */
export function joinAnswers(answers, rows) {
  const first = answers[0];
  const out = { labels: null }; // the first field, as in every answer
  for (const key of Object.keys(first)) {
    const value = first[key];
    out[key] = ArrayBuffer.isView(value) ? concatTyped(answers.map((a) => a[key])) : value;
  }
  const labels = new Array(rows);
  const { classIndex, classNames } = out;
  for (let r = 0; r < rows; r++) labels[r] = classNames[classIndex[r]];
  out.labels = labels;
  if (typeof first.meanTrees === 'number' && out.treesUsed !== undefined) {
    let sum = 0;
    for (const t of out.treesUsed) sum += t;
    out.meanTrees = rows === 0 ? 0 : sum / rows;
  }
  if (typeof first.disagreement === 'number' && out.fullClassIndex !== undefined) {
    let differ = 0;
    for (let r = 0; r < rows; r++) if (out.classIndex[r] !== out.fullClassIndex[r]) differ++;
    out.disagreement = rows === 0 ? 0 : differ / rows;
  }
  return out;
}

/**
 * predict(data, options) of a session cut into jobs.length parts, part i sent to queues[i] by
 * `submit(queue, part, ctl, i)` (which resolves to the part's answer); resolves to the joined answer.
 * `ctl`: the caller's job control (checked); its onProgress sees the first part's events. Aborting
 * its signal stops every part. A failed part fails the call with its error (the first part in row
 * order that failed, once every part has settled: a refused request fails in every part alike, and
 * no thread is stopped for it).
 */
export async function predictInParts(queues, data, options, ctl, submit) {
  const c = control(ctl, 'predict');
  if (c.signal?.aborted) throw abortError(c.signal);
  let x = data.x;
  // With transfer: true the caller's buffer is moved out of its hands, as one thread would move it.
  if (c.transfer === true && x.buffer instanceof ArrayBuffer) x = structuredClone(x, { transfer: [x.buffer] });
  const parts = cutRows(x, data.options, options, queues.length);
  const inner = new AbortController();
  const forward = () => inner.abort(c.signal.reason);
  c.signal?.addEventListener('abort', forward, { once: true });
  try {
    const settled = await Promise.allSettled(parts.map((part, i) => submit(queues[i], part,
      { signal: inner.signal, ...(i === 0 && c.onProgress !== undefined ? { onProgress: c.onProgress } : {}) }, i)));
    if (c.signal?.aborted) throw abortError(c.signal);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return joinAnswers(settled.map((s) => s.value), data.options.rows);
  } finally {
    c.signal?.removeEventListener('abort', forward);
  }
}
