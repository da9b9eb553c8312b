// Argument validation shared by the public API: every argument is checked before it crosses into
// wasm (embind silently coerces bad values), and a bad one throws a TypeError or RangeError that
// names the option.

/**
 * True for a plain object: an object literal, Object.create(null) or such an object from another
 * realm (its prototype is a root prototype). Arrays, Maps, class instances, typed arrays and
 * wrappers are not: an options object is read by its own keys, which a Map does not have.
 */
export function isPlainObject(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || (Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(v) === '[object Object]');
}

/** `options`, or {} when undefined; throws when it is not an object. */
export function optionsObject(options, what) {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw new TypeError(`${what}: options must be a plain object, got ${describe(options)}`);
  return options;
}

/** Throws when `options` has a key outside `allowed`. */
export function rejectUnknown(options, allowed, what) {
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${what}: unknown option '${key}' (expected one of ${allowed.join(', ')})`);
    }
  }
}

/** Integer option `value` in [min, max], or `fallback` when undefined. */
export function intOption(value, name, min, max, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
  }
  if (value < min || value > max) throw new RangeError(`${name} must be in [${min}, ${max}], got ${value}`);
  return value;
}

/** Finite number option `value` in [min, max] (`range`). */
export function realOption(value, name, [min, max]) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${name} must be a finite number, got ${describe(value)}`);
  if (value < min || value > max) throw new RangeError(`${name} must be in [${min}, ${max}], got ${value}`);
  return value;
}

/** An array of strings, or undefined. */
export function stringArray(value, name) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) {
    throw new TypeError(`${name} must be an array of strings`);
  }
  return value;
}

/** An array of distinct strings, or undefined: a name given twice is a RangeError naming it. */
export function distinctStrings(value, name) {
  const names = stringArray(value, name);
  if (names === undefined) return undefined;
  const seen = new Set();
  for (let i = 0; i < names.length; i++) {
    if (seen.has(names[i])) throw new RangeError(`${name}[${i}] = ${describe(names[i])} repeats a name; names must be distinct`);
    seen.add(names[i]);
  }
  return names;
}

/** A short description of `value` for error messages. */
export function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return value.constructor ? value.constructor.name : 'object';
  return `${typeof value} ${String(value)}`;
}

/** A seed (non-negative safe integer or bigint < 2^64; default 1) as its [high, low] 32-bit halves. */
export function seedHalves(seed) {
  if (seed === undefined) return [0, 1];
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed >= 2n ** 64n) throw new RangeError(`seed must be in [0, 2^64), got ${seed}`);
    return [Number(seed >> 32n), Number(seed & 0xffffffffn)];
  }
  if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new TypeError(`seed must be an integer or a bigint, got ${describe(seed)}`);
  if (seed < 0 || seed > Number.MAX_SAFE_INTEGER) throw new RangeError(`seed must be in [0, 2^53 - 1] (use a bigint for larger seeds), got ${seed}`);
  return [Math.floor(seed / 2 ** 32), seed % 2 ** 32];
}

/** Distinct tree ids in [0, numTrees) as an Int32Array. */
export function treeIds(value, name, numTrees) {
  if (!(value instanceof Int32Array || value instanceof Uint32Array || Array.isArray(value))) {
    throw new TypeError(`${name} must be an Int32Array or array of tree ids, got ${describe(value)}`);
  }
  if (value.length === 0) throw new RangeError(`${name} must name at least one tree`);
  if (value.length > numTrees) throw new RangeError(`${name} has ${value.length} ids, more than the ${numTrees} trees`);
  const seen = new Uint8Array(numTrees);
  const out = new Int32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const t = value[i];
    if (typeof t !== 'number' || !Number.isInteger(t)) throw new TypeError(`${name}[${i}] must be an integer, got ${describe(t)}`);
    if (t < 0 || t >= numTrees) throw new RangeError(`${name}[${i}] = ${t} is not a tree id (0..${numTrees - 1})`);
    if (seen[t]) throw new RangeError(`${name}[${i}] = ${t} repeats a tree id`);
    seen[t] = 1;
    out[i] = t;
  }
  return out;
}

/** A tally-like argument as an Int32Array of `length` non-negative integers summing to <= maxSum. */
export function countsArg(value, name, length, maxSum) {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    throw new TypeError(`${name} must be an array or typed array of counts, got ${describe(value)}`);
  }
  if (value.length !== length) throw new RangeError(`${name} must have ${length} counts, got ${value.length}`);
  const out = new Int32Array(length);
  let sum = 0;
  for (let i = 0; i < length; i++) {
    const v = value[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new TypeError(`${name}[${i}] must be an integer, got ${describe(v)}`);
    if (v < 0) throw new RangeError(`${name}[${i}] must be >= 0, got ${v}`);
    sum += v;
    out[i] = v;
  }
  if (sum > maxSum) throw new RangeError(`${name} sums to ${sum}, more than the ${maxSum} trees`);
  return out;
}
