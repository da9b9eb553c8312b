// The demo's sentences for errors (web/explain.js, no DOM): a halting rule that cannot run is named, the reason
// is said in plain words, and rules that can run are offered; the library's raw limit text never shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ruleProblem, sentence } from '../../web/explain.js';

test('a table too large for the page: which rule, why in words, what to pick instead', () => {
  const e = { code: 'LimitExceeded', message: 'LimitExceeded: a full halting table for T = 301, l = 4 has 353518180 states (limit 60000000)' };
  const { text, alternatives } = ruleProblem(e, { rule: 'optimal', numTrees: 301, numClasses: 4 });
  assert.match(text, /^The optimal rule cannot run on this model: /);
  assert.match(text, /353,518,180 of them, more than the 60,000,000 this page can hold/);
  assert.match(text, /Pick siba \(uniform prior\) or hyper \(out-of-bag histogram prior\) instead/);
  assert.doesNotMatch(text, /states \(limit|LimitExceeded|=/);
  assert.deepEqual(alternatives, ['siba', 'hyper']);
});

test('a rule limited in trees says so; the alternatives never include the failing rule', () => {
  const e = { code: 'LimitExceeded', message: 'alpha1 supports T <= 1000' };
  const { text, alternatives } = ruleProblem(e, { rule: 'siba', numTrees: 1001, numClasses: 19 });
  assert.match(text, /at most 1,000 trees and this one has 1001/);
  assert.ok(!alternatives.includes('siba'));
});

test('library messages become sentences without their code or position', () => {
  assert.equal(sentence({ code: 'CsvRaggedRow', message: 'CsvRaggedRow: line 3, column 3: expected 3 fields, got 2' }), 'Expected 3 fields, got 2.');
  assert.equal(sentence(new Error('the file is empty.')), 'The file is empty.');
  assert.equal(sentence(undefined), 'Something went wrong.');
});
