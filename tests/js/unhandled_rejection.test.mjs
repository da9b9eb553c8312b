// The test runner (`node --test`, as scripts/test.sh runs tests/js/) fails a run in which a promise is
// rejected and nobody handles it, during a test or after it ended: no unhandled rejection goes unnoticed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'urnforest-rejection-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const cases = {
  'during a test': "test('t', async () => { Promise.reject(new Error('unhandled')); await new Promise((r) => setTimeout(r, 20)); });",
  'after a test ended': "test('t', () => { setTimeout(() => Promise.reject(new Error('late')), 5); });",
};

for (const [when, body] of Object.entries(cases)) {
  test(`node --test fails on an unhandled rejection ${when}`, () => {
    const file = join(dir, `${when.replaceAll(' ', '_')}.test.mjs`);
    writeFileSync(file, `import { test } from 'node:test';\n${body}\n`);
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT; // a run of its own, not a child of this runner
    const run = spawnSync(process.execPath, ['--test', file], { encoding: 'utf8', env });
    assert.notEqual(run.status, 0, run.stdout);
    assert.match(run.stdout, /unhandled|Rejection/i);
  });
}
