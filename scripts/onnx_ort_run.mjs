// Runs one ONNX model with onnxruntime-web (wasm backend, one thread) on rows read from standard
// input and prints every tensor output as JSON; scripts/onnx_fixtures.py records these as the
// fixtures' ORT outputs. Input: {"model": path, "input": name, "dtype": "float32"|"float64",
// "rows": [[number|null]]} (null = NaN). Output: {"outputs": {name: {type, dims, data}|{error}}}
// or {"load_error": message} when the session cannot be created.
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';

ort.env.wasm.numThreads = 1;
const request = JSON.parse(readFileSync(0, 'utf8'));
let session;
try {
  session = await ort.InferenceSession.create(readFileSync(request.model));
} catch (e) {
  process.stdout.write(JSON.stringify({ load_error: String(e.message ?? e) }));
  process.exit(0);
}
const rows = request.rows;
const width = rows[0].length;
const Flat = request.dtype === 'float64' ? Float64Array : Float32Array;
const flat = new Flat(rows.length * width);
rows.forEach((r, i) => r.forEach((v, j) => { flat[i * width + j] = v === null ? NaN : v; }));
const feeds = { [request.input]: new ort.Tensor(request.dtype, flat, [rows.length, width]) };
const outputs = {};
for (const name of session.outputNames) {
  try {
    const result = await session.run(feeds, [name]);
    const t = result[name];
    const data = typeof t.data[0] === 'bigint' ? Array.from(t.data, Number) : Array.from(t.data);
    outputs[name] = { type: t.type, dims: t.dims, data: data.map((v) => (typeof v === 'number' && Number.isNaN(v) ? null : v)) };
  } catch (e) {
    outputs[name] = { error: String(e.message ?? e) };
  }
}
process.stdout.write(JSON.stringify({ outputs }));
