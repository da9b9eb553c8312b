// Forest.fromONNX time in wasm (not a test).
//
//   node bench/onnx_import.mjs --model M.onnx [--rounds 7] [--dist dist] [--before DIR]
//
// Per round, this process's CPU time (process.cpuUsage) of one Forest.fromONNX of the file's bytes
// (already in memory) and its dispose; with --before DIR (another build's dist/), both builds
// import in this process, alternating round by round. Prints one JSON report: per build the
// median and quartiles over rounds in milliseconds and in milliseconds per 100,000 nodes of the
// imported forest.
import { readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { numberOption, stringOption } from './args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const quartiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.round(q * (s.length - 1))];
  return [at(0.25), at(0.5), at(0.75)].map((x) => Number(x.toFixed(2)));
};

const model = stringOption('model', undefined);
if (!model) throw new Error('usage: --model M.onnx [--rounds N] [--dist DIR] [--before DIR]');
const rounds = numberOption('rounds', 7);
const bytes = new Uint8Array(readFileSync(model));
const builds = { after: stringOption('dist', join(root, 'dist')) };
const before = stringOption('before', undefined);
if (before) builds.before = before;
const runs = {};
for (const [name, dist] of Object.entries(builds)) {
  const api = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  await api.init();
  const f = api.Forest.fromONNX(bytes);  // warm-up; also the node count
  runs[name] = { api, nodes: f.numNodes ?? null, trees: f.numTrees, ms: [] };
  f.dispose();
}
const names = Object.keys(runs);
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 ? [...names].reverse() : names) {
    const start = cpuMs();
    runs[name].api.Forest.fromONNX(bytes).dispose();
    runs[name].ms.push(cpuMs() - start);
  }
}
const report = { model, bytes: bytes.length, rounds, builds: {} };
for (const [name, run] of Object.entries(runs)) {
  report.builds[name] = { trees: run.trees, nodes: run.nodes, ms: quartiles(run.ms),
    ms_per_100k_nodes: quartiles(run.ms.map((x) => (x * 1e5) / run.nodes)) };
}
console.log(JSON.stringify(report, null, 1));
