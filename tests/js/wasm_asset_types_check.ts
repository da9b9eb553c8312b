// Compiled by tsc --noEmit --strict (wasm_asset.test.mjs): init's wasm option accepts every documented source.
import { init, wasmUrl, type InitOptions, type WasmSource, type Urnforest } from 'urnforest';

const sources: WasmSource[] = [wasmUrl(), 'urnforest.wasm', new ArrayBuffer(8), new Uint8Array(8), fetch('urnforest.wasm'),
  await fetch('urnforest.wasm'), await WebAssembly.compile(new Uint8Array(8))];
const options: InitOptions = { wasm: sources[0] };
const uf: Urnforest = await init(options);
const same: Urnforest = await uf.init({ wasm: uf.wasmUrl() });
const url: URL = wasmUrl();
console.log(same, url);
// @ts-expect-error null is no wasm source (WebAssembly.Module is an empty interface, so few values are refused)
await init({ wasm: null });
