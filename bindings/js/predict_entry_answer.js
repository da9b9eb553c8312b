// The inference-only entry's results: the packed answer of urnforest_only_predict (layout in
// bindings/wasm/predict_abi.h, read from the model's description) decoded into the objects the full
// package's predict() returns for each path (halted_answer.js): the same fields, the same types.
// Every figure is the core's; this module only decodes.

// Section name -> byte offset for an answer of n rows and k classes with sections `present`.
function offsets(layout, present, n, k) {
  const out = {};
  let at = layout.headerBytes;
  layout.sections.forEach((s, i) => {
    if ((present & (1 << i)) === 0) return;
    out[s.name] = at;
    at += s.elementBytes * n * (s.perClass ? k : 1);
  });
  return out;
}

/**
 * The packed answer at wasm address `address` copied out (one Uint8Array of its own buffer) with
 * its header: {bytes, n, k, present, meanTrees, disagreement, lambda, path}. The caller frees the
 * wasm block.
 */
export function copyAnswer(m, layout, address) {
  const u32 = address >>> 2;
  const f64 = address >>> 3;
  const size = m.HEAPU32[u32 + 3];
  return {
    bytes: m.HEAPU8.slice(address, address + size),
    n: m.HEAPU32[u32], k: m.HEAPU32[u32 + 1], present: m.HEAPU32[u32 + 2],
    meanTrees: m.HEAPF64[f64 + 2], disagreement: m.HEAPF64[f64 + 3], lambda: m.HEAPF64[f64 + 4],
    path: layout.paths[m.HEAPU32[u32 + 10]],
  };
}

/**
 * predict()'s result from answer `a` (copyAnswer) for class names `names`, the request's `plan`
 * ({rule, alpha, trees, compare}) and `probabilitiesOf()`, which gives the halted
 * paths' probabilities on first read when the answer has none (the core's answer to the same
 * request with probabilities, as the full package computes them).
 */
export function resultOf(layout, a, names, plan, probabilitiesOf) {
  const { n, k, bytes } = a;
  const at = offsets(layout, a.present, n, k);
  const buffer = bytes.buffer;
  const section = (name, Type, length) => (at[name] === undefined ? undefined : new Type(buffer, at[name], length));
  const classIndex = section('classIndex', Int32Array, n);
  const labels = new Array(n);
  for (let i = 0; i < n; i++) labels[i] = names[classIndex[i]];
  const probabilities = section('probabilities', Float64Array, n * k);
  if (a.path === 'full' || a.path === 'weighted' || a.path === 'soft') {
    const out = { labels, classIndex, votes: section('votes', Uint32Array, n * k) ?? new Uint32Array(0), classNames: names.slice() };
    if (a.path === 'weighted') out.scores = section('scores', Float64Array, n * k);
    if (probabilities !== undefined) out.probabilities = probabilities;
    return out;
  }
  const out = {
    labels, classIndex,
    treesUsed: section('treesUsed', Int32Array, n),
    confidence: section('confidence', Float64Array, n),
    haltedEarly: section('haltedEarly', Uint8Array, n),
  };
  const tallies = section('tallies', Int32Array, n * k);
  if (tallies !== undefined) out.tallies = tallies;
  if (plan.compare) {
    out.fullClassIndex = section('fullClassIndex', Int32Array, n).slice();
    out.fullVotes = section('fullVotes', Uint32Array, n * k)?.slice() ?? new Uint32Array(0);
    out.disagreement = a.disagreement;
  }
  out.meanTrees = a.meanTrees;
  if (a.path === 'margin') out.lambda = a.lambda;
  Object.assign(out, { trees: plan.trees, classNames: names.slice(), rule: plan.rule, alpha: plan.alpha });
  if (a.path === 'lp' || a.path === 'auto' || a.path === 'stratified') return out; // no prior backs their stops: no probabilities
  let kept = probabilities ?? null;
  Object.defineProperty(out, 'probabilities', {
    enumerable: true,
    get() {
      if (kept === null) kept = probabilitiesOf();
      return kept;
    },
  });
  return out;
}
