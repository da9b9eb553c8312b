import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
