// rules and ruleInfo: the core's rule table as the JS API ships it (written at build time, usable
// before init()), equal to what the running wasm module and the public .d.ts say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, ruleInfo, rules } from '../../dist/index.js';

const before = { rules: [...rules], ruleInfo: ruleInfo.map((r) => ({ ...r })) };
const uf = await init();

test('rules and ruleInfo exist before init() and are the running core\'s table, frozen', () => {
  assert.deepEqual(before.rules, rules);
  assert.equal(uf.ruleInfo, ruleInfo);
  assert.ok(Object.isFrozen(ruleInfo) && ruleInfo.every((r) => Object.isFrozen(r)));
  assert.deepEqual(ruleInfo.map((r) => r.name), [...rules]);
  assert.deepEqual(before.ruleInfo, ruleInfo.map((r) => ({ ...r })));
});

test('the running module accepts exactly the rules of the table and lists them when refusing another', () => {
  const { haltingTable } = uf;
  for (const info of ruleInfo.filter((r) => !r.needsPrior)) {
    const table = haltingTable({ rule: info.name, trees: 11, classes: 2 });
    assert.equal(table.rule, info.name);
    table.dispose();
  }
  assert.throws(() => haltingTable({ rule: 'nope', trees: 11 }), (e) => e instanceof RangeError && e.message.includes(rules.join(', ')));
});

test('the .d.ts RuleName union is the core\'s list of rules, in order', () => {
  const dts = readFileSync(new URL('../../dist/index.d.ts', import.meta.url), 'utf8');
  const m = dts.match(/export type RuleName = ([^;]+);/);
  assert.ok(m, 'RuleName in dist/index.d.ts');
  const union = m[1].split('|').map((s) => s.trim().replace(/^'|'$/g, ''));
  assert.deepEqual(union, [...rules]);
});

test('ruleInfo has each rule\'s traits: a summary, a one-line description citing its source, its limits; needsPrior rules need a forest', () => {
  for (const r of ruleInfo) {
    assert.ok(r.summary.length > 0 && r.description.length > r.summary.length, r.name);
    assert.ok(!r.description.includes('\n'), r.name);
    if (r.fromPapers) assert.ok(r.description.includes(r.source), `${r.name}: ${r.description}`);
    assert.equal(typeof r.needsPrior, 'boolean');
    assert.ok(r.maxClasses >= 2 && r.maxTrees >= 1);
  }
  for (const r of ruleInfo) {
    const build = () => uf.haltingTable({ rule: r.name, trees: 11, classes: 2 }).dispose();
    if (r.needsPrior) assert.throws(build, RangeError, r.name);
    else build();
  }
});

test('docs/api.md\'s rule table lists the rules of the core\'s table, in its order', () => {
  const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const lines = api.slice(api.indexOf('| rule | prior / idea |')).split('\n').slice(2);
  const rows = lines.slice(0, lines.findIndex((line) => !line.startsWith('|'))).map((line) => line.match(/^\| `([^`]+)`/)[1]);
  assert.deepEqual(rows, [...rules]);
});
