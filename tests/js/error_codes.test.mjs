import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import createUrnforestModule from '../../dist/urnforest_wasm.mjs';

const JS_ONLY = ['ModuleReset'];
const CLI_ONLY = ['IoError'];

function declaredCodes() {
  const types = readFileSync(new URL('../../dist/index.d.ts', import.meta.url), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const union = /export type UrnforestErrorCode =([^;]*);/.exec(types);
  assert.ok(union, 'index.d.ts declares UrnforestErrorCode');
  return [...union[1].matchAll(/'([A-Za-z0-9]+)'/g)].map((m) => m[1]);
}

test('UrnforestErrorCode lists the core error codes in the order of StatusCode, plus the JS-only ModuleReset', async () => {
  const m = await createUrnforestModule();
  const core = m._codeNames();
  assert.ok(core.includes('InvalidArgument') && !core.includes('Ok'));
  assert.deepEqual(declaredCodes().filter((c) => !JS_ONLY.includes(c)), core.filter((c) => !CLI_ONLY.includes(c)));
  assert.deepEqual(declaredCodes().filter((c) => JS_ONLY.includes(c)), JS_ONLY);
});

// The codes docs/api.md and docs/reliability.md write: backticked CamelCase words, less the names of
// classes, functions and types (those of the C++ headers and the .d.ts parts, and JS built-ins).
const BUILT_INS = ['TypeError', 'RangeError', 'Error', 'AbortError', 'DOMException', 'AbortSignal', 'AbortController',
  'Float32Array', 'Float64Array', 'Int32Array', 'Uint32Array', 'Uint8Array', 'ArrayBuffer', 'SharedArrayBuffer',
  'WebAssembly', 'RuntimeError', 'FinalizationRegistry', 'TextEncoder', 'TreeEnsembleClassifier', 'TreeEnsemble',
  'ArgMax', 'ZipMap', 'DataCloneError'];

function declaredNames() {
  const names = new Set(BUILT_INS);
  const sources = [
    ...readdirSync(new URL('../../src/urnforest/', import.meta.url)).map((f) => new URL(`../../src/urnforest/${f}`, import.meta.url)),
    ...readdirSync(new URL('../../bindings/types/', import.meta.url)).map((f) => new URL(`../../bindings/types/${f}`, import.meta.url)),
    new URL('../../bindings/worker.d.ts', import.meta.url),
  ];
  for (const file of sources) {
    const code = readFileSync(file, 'utf8').replace(/'[^'\n]*'/g, '');
    for (const m of code.matchAll(/\b[A-Z][A-Za-z0-9]+\b/g)) names.add(m[0]);
  }
  return names;
}

function documentedCodes(file, sectionTitle, notCodes) {
  let text = readFileSync(new URL(`../../docs/${file}`, import.meta.url), 'utf8');
  if (sectionTitle !== undefined) {
    const from = text.indexOf(sectionTitle);
    assert.ok(from >= 0, `${file} has the section ${sectionTitle}`);
    const next = text.indexOf('\n## ', from + 1);
    text = text.slice(from, next < 0 ? undefined : next);
  }
  return new Set([...text.matchAll(/`([A-Z][a-z]+[A-Z][A-Za-z0-9]*|Internal)`/g)].map((m) => m[1]).filter((w) => !notCodes.has(w)));
}

test("docs/api.md's error-code table lists exactly the codes the library defines, and neither page names another", async () => {
  const m = await createUrnforestModule();
  const defined = new Set([...m._codeNames(), ...JS_ONLY, 'RemoteDisposed']);
  const notCodes = declaredNames();
  for (const c of defined) notCodes.delete(c);
  const table = [...documentedCodes('api.md', '## Error codes', notCodes)];
  assert.deepEqual([...defined].filter((c) => !table.includes(c)), [], 'codes missing from the table');
  assert.deepEqual(table.filter((c) => !defined.has(c)), [], 'the table names codes that do not exist');
  for (const page of ['api.md', 'reliability.md']) {
    const named = documentedCodes(page, undefined, notCodes);
    assert.deepEqual([...named].filter((c) => !defined.has(c)), [], `${page} names codes that do not exist`);
  }
});
