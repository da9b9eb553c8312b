// Training-speed benchmark of the wasm build in Node (`npm run bench`).
// Twonorm (Breiman 1996): 20 features, two classes with means ±(a, ..., a), a = 2 / sqrt(20), unit
// variance; generated here with a fixed seed. Prints one JSON line per configuration.
// Peers (scikit-learn, ml-random-forest) are compared in the issue-2 benchmark; this is the wasm side.
import { init } from '../dist/index.js';

function twonorm(rows, seed = 1) {
  const cols = 20;
  const a = 2 / Math.sqrt(cols);
  let s = seed >>> 0 || 1;
  const uniform = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return (s + 0.5) / 2 ** 32; };
  const gauss = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const x = new Float32Array(rows * cols);
  const labels = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    labels[r] = r % 2;
    const mean = labels[r] ? a : -a;
    for (let c = 0; c < cols; c++) x[r * cols + c] = mean + gauss();
  }
  return { x, labels, rows, cols };
}

const uf = await init();
const trees = Number(process.env.TREES ?? 101);
for (const rows of [2000, 5000]) {
  const { x, labels, cols } = twonorm(rows);
  const data = uf.Dataset.fromArrays(x, { rows, cols, labels, classNames: ['1', '2'] });
  const times = [];
  let oob = 0;
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    const forest = uf.trainForest(data, { trees, seed: rep + 1 });
    times.push(performance.now() - t0);
    oob = forest.oobError;
    forest.dispose();
  }
  times.sort((p, q) => p - q);
  console.log(JSON.stringify({ bench: 'twonorm', engine: 'urnforest-wasm', rows, cols, trees,
    train_ms_median: Number(times[1].toFixed(1)), oob_error: Number(oob.toFixed(4)) }));
  data.dispose();
}
