// `urnforest rules`: the core's rule table as one JSON document, and the usage text built from it.
// Runs build/urnforest (built by `npm test` before this suite).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './cli_binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function rulesJson() {
  const out = spawnSync(cli, ['rules', '--json'], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const lines = out.stdout.trim().split('\n');
  assert.equal(lines.length, 1);
  return JSON.parse(lines[0]).rules;
}

test('rules --json lists every rule once with its traits, in the core\'s order', () => {
  const rules = rulesJson();
  assert.ok(rules.length >= 2);
  assert.equal(new Set(rules.map((r) => r.name)).size, rules.length);
  assert.ok(rules.every((r) => /^[a-z0-9]+$/.test(r.name)), rules.map((r) => r.name).join());
  for (const r of rules) {
    assert.equal(typeof r.description, 'string');
    assert.ok(r.description.length > 20 && !r.description.includes('\n'), r.name);
    assert.ok(r.summary.length > 0, r.name);
    assert.equal(r.max_classes, 4096);
    assert.equal(r.max_trees, 100000);
    if (r.from_papers) assert.ok(r.description.includes(r.source), r.name);
  }
});

test('a rule needs a model exactly when its traits say it needs a prior', () => {
  for (const r of rulesJson()) {
    const out = spawnSync(cli, ['table', '--rule', r.name, '--alpha', '0.99', '--trees', '11', '--classes', '2', '--json'], { encoding: 'utf8' });
    assert.equal(out.status !== 0, r.needs_prior, `${r.name}: ${out.stdout}`);
  }
});

test('the usage text and an unknown rule list the rules of the table', () => {
  const names = rulesJson().map((r) => r.name);
  const usage = spawnSync(cli, ['--help'], { encoding: 'utf8' }).stdout;
  assert.ok(usage.includes(`--rule ${names.join('|')} `), usage);
  assert.ok(usage.includes(`--rules ${names.join(',')}]`), usage);
  const bad = spawnSync(cli, ['table', '--rule', 'nope', '--trees', '11', '--classes', '2', '--json'], { encoding: 'utf8' });
  const error = JSON.parse(bad.stdout).error;
  assert.equal(error.code, 'InvalidArgument');
  assert.ok(error.message.includes(`${names.slice(0, -1).join(', ')} or ${names.at(-1)}`), error.message);
});

test('a rule\'s limits hold: every rule builds a table for 7 classes and its full table stops where it says', () => {
  for (const r of rulesJson().filter((x) => !x.needs_prior)) {
    for (const classes of [2, 7]) {
      const out = spawnSync(cli, ['table', '--rule', r.name, '--alpha', '0.99', '--trees', '21', '--classes', String(classes), '--json'], { encoding: 'utf8' });
      const doc = JSON.parse(out.stdout);
      assert.equal(out.status, 0, `${r.name} l=${classes}: ${out.stdout}`);
      assert.equal(doc.layout === 'thresholds', classes <= r.full_table_max_classes, `${r.name} l=${classes} ${doc.layout}`);
    }
  }
});
