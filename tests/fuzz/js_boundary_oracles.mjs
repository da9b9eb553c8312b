// Oracle targets of the JS-boundary fuzzer (tests/fuzz/js_boundary.mjs): calls whose answer is known,
// so that an accepted call with a wrong answer fails the run, not only an undocumented error.
//   - caller-owned outputs of Forest.predict that share one buffer (the same array for two keys, or
//     overlapping views): refused with a TypeError or RangeError, or every array holds the clean answer;
//   - inputs mutated after a call returns (Dataset.fromArrays' array, a worker call's array before its
//     promise settles) and during a callback (trainForest's onProgress changes the rows, labels and
//     options): the answer is that of the input as it was at the call;
//   - rows and options whose own keys are `__proto__`, `constructor` or `valueOf` (as JSON.parse makes
//     them): a row's own key is a column like any other, a key a row does not own is a missing value.
// Each target returns its result (or a promise) to the fuzzer, which classifies thrown errors as for any
// call; `wrong(text)` records a wrong answer.

/** The oracle targets: [name, () => result or promise] pairs, drawn by the fuzzer like the others. */
export function oracleTargets({ api, rand, int, pick, iris, forest, remote, worker, options, wrong }) {
  const cols = iris.numFeatures;
  const featureNames = iris.featureNames;
  const randomRows = (rows) => Float32Array.from({ length: rows * cols }, () => (rand() < 0.05 ? NaN : rand() * 8));
  const differs = (a, b) => a.length !== b.length ||
    Array.prototype.some.call(a, (v, i) => !Object.is(Number(v), Number(b[i])));
  const spoil = (array) => array.fill(pick([0, NaN, 1e9, -3]));

  function aliasedOutputs() {
    const n = iris.numRows;
    const opts = { rule: pick(['siba', 'alpha1', 'hyper', 'infinite']), alpha: pick([0.9, 0.99]) };
    const buffer = new ArrayBuffer(n * 8 * 4 + 64);
    const disjoint = rand() < 0.3;  // views of one buffer that do not overlap: accepted
    let next = 0;
    const kinds = { classIndex: Int32Array, treesUsed: Int32Array, confidence: Float64Array, haltedEarly: Uint8Array };
    const out = {};
    const made = [];
    for (const key of Object.keys(kinds)) {
      if (rand() < 0.3) continue;
      const Kind = kinds[key];
      const same = made.find((a) => a instanceof Kind);
      // The same array for two keys, or a view of the shared buffer at an aligned offset.
      if (disjoint) {
        out[key] = new Kind(buffer, next, n);
        next += Math.ceil((n * Kind.BYTES_PER_ELEMENT) / 8) * 8;
      } else {
        out[key] = same !== undefined && rand() < 0.5 ? same : new Kind(buffer, Kind.BYTES_PER_ELEMENT * int(8), n);
      }
      made.push(out[key]);
    }
    const clean = forest.predict(iris, opts);
    const got = forest.predict(iris, opts, { out });
    for (const key of Object.keys(out)) {
      if (differs(got[key], clean[key])) {
        wrong(`oracle: predict into outputs sharing a buffer (${Object.keys(out).join(', ')}): ${key} differs from a clean call`);
      }
    }
    return got;
  }

  function mutatedAfterReturn() {
    const rows = 1 + int(20);
    const x = randomRows(rows);
    const d = api.Dataset.fromArrays(x, { rows, cols, featureNames });
    try {
      const before = forest.predict(d).classIndex.slice();
      spoil(x);
      if (differs(forest.predict(d).classIndex, before)) wrong('oracle: a Dataset changed when its source array did');
    } finally {
      d.dispose();
    }
  }

  function mutatedDuringCallback() {
    const rows = 6 + int(30);
    const x = randomRows(rows);
    const labels = Int32Array.from({ length: rows }, (_, i) => i % 3);
    const d = api.Dataset.fromArrays(x, { rows, cols, labels, featureNames });
    const seed = int(1000);
    const plain = api.trainForest(d, { trees: 5, seed });
    const opts = { trees: 5, seed, onProgress: () => { spoil(x); spoil(labels); opts.trees = 1; opts.seed = seed + 1; } };
    let spoiled;
    try {
      spoiled = api.trainForest(d, opts);
      if (differs(spoiled.toBytes(), plain.toBytes())) wrong('oracle: trainForest changed when its inputs changed during onProgress');
    } finally {
      plain.dispose();
      spoiled?.dispose();
      d.dispose();
    }
  }

  function workerMutatedAfterCall() {
    const rows = 1 + int(20);
    const x = randomRows(rows);
    const copy = x.slice();
    const opts = { rows, cols, featureNames };
    const answer = remote.predict({ x, options: opts });
    spoil(x);
    opts.rows = 1;
    const d = api.Dataset.fromArrays(copy, { rows, cols, featureNames });
    const expected = forest.predict(d).classIndex;
    d.dispose();
    return answer.then((p) => {
      if (differs(p.classIndex, expected)) wrong('oracle: a worker call read its array after the call');
    });
  }

  function workerTrainMutated() {
    const rows = 6 + int(30);
    const x = randomRows(rows);
    const labels = Int32Array.from({ length: rows }, (_, i) => i % 3);
    const d = api.Dataset.fromArrays(x, { rows, cols, labels, featureNames });
    const seed = int(1000);
    const local = api.trainForest(d, { trees: 5, seed });
    const expected = local.toBytes();
    local.dispose();
    d.dispose();
    const trained = worker.train({ x, options: { rows, cols, labels, featureNames } }, { trees: 5, seed },
      { onProgress: () => { spoil(x); spoil(labels); } });
    spoil(x);
    spoil(labels);
    return trained.then((r) => {
      if (differs(r.bytes, expected)) wrong('oracle: worker.train read its arrays after the call');
    });
  }

  const protoKeys = ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty'];
  function prototypeKeyRows() {
    const keys = [pick(protoKeys), pick(protoKeys), 'a'];
    const rows = JSON.parse(`[{"${keys[0]}": 1, "a": 2, "y": "p"}, {"${keys[1]}": 3, "y": "q"}, {"a": 5, "y": "p"}]`);
    const d = api.Dataset.fromRows(rows, { target: 'y' });
    try {
      const expected = [...new Set(keys)].sort().join(', ');
      if ([...d.featureNames].sort().join(', ') !== expected) {
        wrong(`oracle: rows with own keys ${keys.join(', ')} gave columns ${d.featureNames.join(', ')}`);
      }
      if (d.numRows !== 3) wrong('oracle: rows with prototype keys lost rows');
    } finally {
      d.dispose();
    }
  }

  function prototypeKeyOptions() {
    const key = pick(protoKeys);
    const value = pick(['1', '"siba"', '{"rule": "siba"}', 'null']);
    const own = JSON.parse(`{"${key}": ${value}}`);
    const extra = rand() < 0.5 ? options() : {};
    for (const [k, v] of Object.entries(extra)) own[k] = v;
    return pick([
      () => forest.predict(iris, own),
      () => api.Dataset.fromCSV('a,b,y\n1,2,p\n3,4,q\n', own).dispose(),
      () => api.trainForest(iris, Object.assign(own, { trees: 3 })).dispose(),
      () => forest.haltingTable(own).dispose(),
    ])();
  }

  return [
    ['oracle: predict into aliasing outputs', aliasedOutputs],
    ['oracle: input mutated after return', mutatedAfterReturn],
    ['oracle: input mutated during onProgress', mutatedDuringCallback],
    ['oracle: worker input mutated after the call', workerMutatedAfterCall],
    ['oracle: worker.train inputs mutated', workerTrainMutated],
    ['oracle: rows with prototype keys', prototypeKeyRows],
    ['oracle: options with prototype keys', prototypeKeyOptions],
  ];
}
