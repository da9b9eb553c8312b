// End-to-end test of the demo's "bring your own model" view (web/byom.js) in Debian's Chromium, driven by
// playwright-core, served by scripts/serve.mjs on 127.0.0.1. One page is shared by the tests, which run in
// order: the bundled scikit-learn example (predictions, accuracy, exact early exit, calibration, hyper and
// margin, the urn), the XGBoost example, then bad files (not ONNX, an unsupported node, a CSV lacking a
// column) shown as readable errors. The page may only fetch its own static files, and opening the user's
// files makes no request at all. Screenshots go to tests/e2e/artifacts/ (git-ignored).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDemo, closeDemo } from './demo_page.mjs';
import { repoRoot } from '../../scripts/serve.mjs';

const ARTIFACTS = join(repoRoot, 'tests', 'e2e', 'artifacts');
const FIXTURES = join(repoRoot, 'tests', 'fixtures', 'onnx');

let server;
let context;
let profile;
let page;
const requests = [];
const problems = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ server, context, profile, page } = await openDemo('urnforest-byom-', { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' }, { problems, onPage: (p) => p.on('request', (req) => requests.push({ url: req.url(), method: req.method() })) }));
});

after(() => closeDemo({ context, server, profile }));

const view = (key) => page.getAttribute('#byom-view', `data-${key}`);
const metric = async (key) => (await page.textContent(`#byom-view [data-key="${key}"] dd`)).trim();
const settled = () => page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#byom-view').dataset.state));

async function openModel(name, buffer) {
  await page.setInputFiles('#byom-model', { name, mimeType: 'application/octet-stream', buffer });
  await page.waitForFunction((n) => document.querySelector('#byom-summary').textContent.includes(n), name);
}

test('the scikit-learn example classifies its 150 held-out rows and halts early', { timeout: 60_000 }, async () => {
  await page.click('#byom-example-rf');
  await settled();
  assert.equal(await view('state'), 'ready', await page.textContent('#byom-error'));
  assert.equal(await view('rows'), '150');
  assert.equal(await page.textContent('#byom-trees'), '15');
  assert.match(await page.textContent('#byom-classes'), /benign, malignant/);
  assert.equal(await page.textContent('#byom-features'), '30');
  assert.equal(await page.textContent('#byom-kind'), 'voting forest');
  assert.equal(await page.$$eval('#byom-table tbody tr', (rows) => rows.length), 15);
  const accuracy = Number((await metric('accuracy')).match(/^([\d.]+)\s%/)[1]);
  assert.ok(accuracy > 85 && accuracy <= 100, `accuracy ${accuracy}`);
  const exact = Number(await view('exact-mean-trees'));
  assert.ok(exact >= 1 && exact < 15, `exact early exit: ${exact} trees of 15`);
  assert.match(await metric('same'), /^100\s%/);
  // Before calibration only rule auto runs (and says why it cannot certify); the others ask to calibrate.
  assert.equal(await page.isDisabled('#byom-rule'), false);
  assert.match(await page.textContent('#byom-rule-help'), /^Calibrate first/);

  await page.click('#byom-calibrate');
  await page.waitForFunction(() => document.querySelector('#byom-view').dataset.statMeanTrees !== undefined);
  const hyper = Number(await view('stat-mean-trees'));
  assert.ok(hyper >= 1 && hyper <= exact, `hyper at 0.99 asks ${hyper} trees, the exact rule ${exact}`);
  assert.match(await metric('disagreement'), /^\d+\.\d\s%/);
  await page.selectOption('#byom-rule', 'margin');
  await page.selectOption('#byom-alpha', '0.9');
  await page.waitForFunction((h) => document.querySelector('#byom-view').dataset.statMeanTrees !== String(h), hyper);
  assert.match(await page.textContent('#byom-rule-help'), /^Calibrated on 150 rows\. margin/);

  await page.selectOption('#byom-rule', 'hyper');
  await page.fill('#byom-row', '3');
  await page.press('#byom-row', 'Enter');
  await page.click('#byom-finish');
  assert.equal(await page.getAttribute('#byom-urn', 'data-state'), 'halted');
  assert.ok(Number(await page.getAttribute('#byom-urn', 'data-drawn')) >= 1);
  assert.match(await page.textContent('#byom-urn-verdict'), /(Stopped after|All) \d+ (of 15 )?trees/);
  await page.locator('#byom-view').screenshot({ path: join(ARTIFACTS, 'byom-sklearn.png') });
  assert.deepEqual(problems, []);
});

test('the XGBoost example is additive: exact early exit only, no urn', { timeout: 30_000 }, async () => {
  await page.click('#byom-example-xgb');
  await page.waitForFunction(() => document.querySelector('#byom-summary').textContent.includes('xgboost'));
  assert.equal(await view('state'), 'ready');
  assert.equal(await page.textContent('#byom-kind'), 'additive (boosted)');
  assert.equal(await page.isHidden('#byom-voting'), true);
  assert.equal(await page.isVisible('#byom-additive-note'), true);
  assert.equal(await page.isHidden('#byom-urn-block'), true);
  const exact = Number(await view('exact-mean-trees'));
  assert.ok(exact >= 1 && exact < 20, `exact early exit: ${exact} trees of 20`);
  assert.deepEqual(problems, []);
});

test('bad files give readable errors and the page keeps working, without a request', { timeout: 30_000 }, async () => {
  const before = requests.length;
  await openModel('notes.onnx', Buffer.from('this is not a model\n'));
  assert.equal(await view('state'), 'error');
  assert.equal(await page.getAttribute('#byom-error', 'data-code'), 'CorruptModel');
  const corrupt = await page.textContent('#byom-error');
  assert.match(corrupt, /notes\.onnx: This file is not an ONNX model/);
  assert.doesNotMatch(corrupt, /CorruptModel/);

  await openModel('pipeline.onnx', readFileSync(join(FIXTURES, 'bad_unknown_op.onnx')));
  assert.equal(await page.getAttribute('#byom-error', 'data-code'), 'UnsupportedModel');
  assert.match(await page.textContent('#byom-error'), /cannot run.*MysteryTransform/s);

  await openModel('forest.onnx', readFileSync(join(repoRoot, 'web', 'examples', 'sklearn_rf_wdbc.onnx')));
  await page.setInputFiles('#byom-csv', { name: 'iris.csv', mimeType: 'text/csv', buffer: readFileSync(join(repoRoot, 'datasets', 'iris.csv')) });
  await page.waitForFunction(() => document.querySelector('#byom-error').dataset.code !== undefined);
  assert.equal(await page.getAttribute('#byom-error', 'data-code'), 'ColumnMismatch');
  assert.match(await page.textContent('#byom-error'), /lacks a column the model needs.*'f0'/s);
  await page.locator('#byom-view').screenshot({ path: join(ARTIFACTS, 'byom-error.png') });

  await page.setInputFiles('#byom-csv', { name: 'wdbc.csv', mimeType: 'text/csv', buffer: readFileSync(join(repoRoot, 'datasets', 'wdbc.csv')) });
  await page.waitForFunction(() => document.querySelector('#byom-summary').textContent.includes('wdbc.csv'));
  await page.check('#byom-inorder');
  await page.waitForFunction(() => document.querySelector('#byom-view').dataset.rows === '569');
  assert.equal(await view('state'), 'ready');
  assert.equal(await view('rows'), '569');
  assert.equal(await page.isHidden('#byom-error'), true);
  assert.deepEqual(requests.slice(before), [], 'opening the user\'s files makes no request');
  assert.deepEqual(problems, []);
});

test('the page fetched only its own static files', () => {
  assert.ok(requests.length > 0);
  for (const { url, method } of requests) {
    if (url.startsWith('data:') || url.startsWith('blob:')) continue;
    assert.ok(url.startsWith(`${server.origin}/`), `foreign request ${url}`);
    assert.equal(method, 'GET', url);
    const path = decodeURIComponent(new URL(url).pathname);
    assert.ok(path === '/web/' || existsSync(join(repoRoot, path)), `not a file of the repository: ${path}`);
    assert.match(path, /^\/(web|dist|datasets)\//, path);
  }
  assert.ok(requests.some(({ url }) => url.endsWith('/web/examples/sklearn_rf_wdbc.onnx')));
});
