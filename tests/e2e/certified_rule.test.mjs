// End-to-end test of certified halting in the main rule bar (views 2, 3 and 6), in Debian's Chromium driven by
// playwright-core: a forest trained in the page is calibrated on part of its held-out rows, rule auto is picked
// in view 2, and the certificate, the urn's stop and view 3's trade-off table follow the library; with too few
// calibration rows the certificate and the urn explain the exact exit; the address round-trips the choice; δ is
// checked as typed; the views pass the 390 and 1,440 px checks and axe-core. Screenshots go to
// tests/e2e/artifacts/ (git-ignored).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDemo, closeDemo } from './demo_page.mjs';
import { repoRoot } from '../../scripts/serve.mjs';
import { WIDTHS, axeViolations, brokenWords, fieldProblems, smallChartText } from './page_checks.mjs';

const ARTIFACTS = join(repoRoot, 'tests', 'e2e', 'artifacts');
let server;
let context;
let profile;
let page;
const problems = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ server, context, profile, page } = await openDemo('urnforest-certified-rule-', { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' }, { problems }));
});

after(() => closeDemo({ context, server, profile }));

/** Trains `trees` trees on `dataset` with `holdout` of the rows held out and a share `cal` of them calibrating. */
async function train(dataset, { holdout, cal, trees = 101, ensemble = 'rf' }) {
  await page.selectOption('#dataset', dataset);
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.selectOption('#ensemble', ensemble);
  await page.selectOption('#holdout', holdout);
  await page.selectOption('#calibrate', cal);
  await page.fill('#trees', String(trees));
  await page.fill('#seed', '1');
  await page.click('#train');
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state), null, { timeout: 30_000 });
  assert.equal(await page.getAttribute('#status', 'data-state'), 'ok', await page.textContent('#status'));
}

/** Picks `rule` at `alpha` in view 2's rule bar and waits until the urn shows a row under it. */
async function pick(rule, alpha) {
  await page.selectOption('#alpha', alpha);
  await page.selectOption('#rule', rule);
  await page.waitForFunction((r) => document.querySelector('#urn').dataset.state === 'ready' && document.querySelector('#urn').dataset.rule === r,
    rule, { timeout: 60_000 });
}

const urnState = () => page.evaluate(() => ({ ...document.querySelector('#urn').dataset }));
const certificate = (id) => page.$eval(`#${id}`, (el) => ({ hidden: el.hidden, text: el.textContent.replace(/\s+/g, ' '),
  certified: el.querySelector('.certificate')?.dataset.certified, strategy: el.querySelector('.certificate')?.dataset.strategy }));
const hashState = () => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));

test('auto in view 2\'s rule bar, calibrated on held-out rows of wdbc, is certified and the urn stops where the library does, below T', { timeout: 180_000 }, async () => {
  await train('wdbc', { holdout: '0.5', cal: '0.75' });
  assert.equal(await page.getAttribute('#calibrate-note', 'data-rows'), '214');
  assert.match(await page.textContent('#calibrate-note'), /Calibrated on 214 rows drawn from the held-out rows; .* the other 71 rows/);
  await pick('auto', '0.9');
  assert.equal(await page.$eval('#order', (el) => el.value), 'random', 'auto switches the order to random');
  assert.equal(await page.isVisible('#delta'), true);
  const c = await certificate('urn-certificate');
  assert.equal(c.hidden, false);
  assert.equal(c.certified, 'yes', c.text);
  assert.match(c.text, /Certified\. auto chose .* at most [\d.]+ % \(≤ 1 − α = 10\.0 %\), with probability at least 95\.0 % \(1 − δ\) .* fitted on 54 rows, certified on 160 others/); // a quarter of the 214 fit, the rest certify
  assert.match(c.text, /On these 71 test rows: [\d.]+ of 101 trees per row/);
  assert.match(c.text, /What this promises: .* calibration rows/);
  assert.equal(await page.getAttribute('#urn-certificate a[href$="halting.md"]', 'href'), '../docs/halting.md');
  let st = await urnState();
  assert.equal(st.strategy, c.strategy);
  await page.click('#urn-finish');
  st = await urnState();
  assert.equal(st.state, 'halted');
  assert.equal(st.drawn, st.treesUsed);
  assert.ok(Number(st.treesUsed) < 101, `trees used ${st.treesUsed}`);
  assert.match(await page.textContent('#urn-verdict'), /Stopped after \d+ of 101 trees/);
  // The hardest row too: the draw stops where the library's prediction stops it.
  await page.click('#urn-hard');
  await page.waitForFunction(() => document.querySelector('#urn').dataset.state === 'ready');
  await page.click('#urn-finish');
  st = await urnState();
  assert.equal(st.drawn, st.treesUsed);
  await page.locator('#urn-view').screenshot({ path: join(ARTIFACTS, 'certified-urn-auto.png') });

  // View 3: the same certificate and the trade-off table of hyper, auto and lp at α.
  await page.waitForFunction(() => document.querySelector('#test-tradeoff')?.dataset.rules === 'hyper auto lp', null, { timeout: 60_000 });
  const t = await certificate('test-certificate');
  assert.equal(t.certified, 'yes');
  const autoTrees = Number(await page.getAttribute('#test-tradeoff', 'data-auto-trees'));
  assert.ok(autoTrees > 0 && autoTrees < 101, `auto's mean trees ${autoTrees}`);
  assert.equal(Number(await page.getAttribute('#test-metrics', 'data-mean-trees')), autoTrees);
  assert.match(await page.textContent('#test-tradeoff'), /Trees versus disagreement at α = 0\.9 on the test rows/);
  const row = await page.$eval('#test-tradeoff', (el) => ({ ...el.dataset }));
  console.log(`# wdbc, 101 trees, 214 calibration rows, 71 test rows, α = 0.9, δ = 0.05 (${t.strategy}): ` +
    ['hyper', 'auto', 'lp'].map((r) => `${r} ${Number(row[`${r}Trees`]).toFixed(1)} trees, ` +
      `${(100 * Number(row[`${r}Disagreement`])).toFixed(1)} % disagreement`).join('; '));
  await page.locator('#test-view').screenshot({ path: join(ARTIFACTS, 'certified-test-view.png') });

  // View 6: classifying the test rows with the rule bar's auto shows the same certificate.
  await page.click('#classify-test');
  await page.waitForFunction(() => !document.querySelector('#classify-certificate').hidden, null, { timeout: 60_000 });
  const v6 = await certificate('classify-certificate');
  assert.equal(v6.certified, 'yes');
  assert.equal(v6.strategy, t.strategy);
  assert.match(v6.text, /On these 71 rows: [\d.]+ of 101 trees per row on average\./);
  assert.deepEqual(problems, []);
});

test('the address round-trips rule auto, α, δ, the order and the calibration rows', { timeout: 180_000 }, async () => {
  const state = await hashState();
  assert.equal(state.rule, 'auto');
  assert.equal(state.alpha, '0.9');
  assert.equal(state.delta, '0.05');
  assert.equal(state.order, 'random');
  assert.equal(state.cal, '0.75');
  const row = (await urnState()).row;
  const used = (await urnState()).treesUsed;
  const hash = await page.evaluate(() => location.hash);
  await page.goto('about:blank');
  await page.goto(`${server.url}${hash}`);
  await page.waitForFunction(() => document.querySelector('#urn')?.dataset.state === 'ready' && document.querySelector('#urn').dataset.rule === 'auto',
    null, { timeout: 90_000 });
  assert.equal(await page.$eval('#calibrate', (el) => el.value), '0.75');
  assert.equal(await page.$eval('#order', (el) => el.value), 'random');
  assert.equal(await page.$eval('#delta', (el) => el.value), '0.05');
  const st = await urnState();
  assert.equal(st.row, row);
  assert.equal(st.treesUsed, used);
  assert.equal((await certificate('urn-certificate')).certified, 'yes');
  assert.deepEqual(problems, []);
});

test('δ is checked as typed: a bad value is refused with a reason and the answer is kept', { timeout: 60_000 }, async () => {
  await page.fill('#delta', '1.5');
  assert.equal(await page.getAttribute('#delta', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#delta-note'), /δ must be more than 0 and less than 1/);
  assert.equal((await hashState()).delta, '0.05');
  await page.fill('#delta', '0.2');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('delta') === '0.2');
  await page.waitForFunction(() => /at least 80\.0\s%/.test(document.querySelector('#urn-certificate').textContent), null, { timeout: 60_000 });
  assert.equal(await page.getAttribute('#delta', 'aria-invalid'), 'false');
});

test('views 3 and 6 carry δ beside rule, α and order: typed there it is the rule bar\'s δ, shown for auto only', { timeout: 120_000 }, async () => {
  const copies = ['testset', 'classify'];
  const shown = () => page.evaluate((ids) => ids.map((p) => !document.getElementById(`${p}-delta-cell`).hidden), copies);
  const values = () => page.evaluate((ids) => ids.map((p) => document.getElementById(`${p}-delta`).value), copies);
  assert.equal(await page.inputValue('#rule'), 'auto');
  assert.deepEqual(await shown(), [true, true]);
  assert.deepEqual(await values(), [await page.inputValue('#delta'), await page.inputValue('#delta')]);
  await page.fill('#testset-delta', '0.1');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('delta') === '0.1');
  assert.equal(await page.inputValue('#delta'), '0.1');
  assert.equal(await page.inputValue('#classify-delta'), '0.1');
  await page.waitForFunction(() => /at least 90\.0\s%/.test(document.querySelector('#urn-certificate').textContent), null, { timeout: 60_000 });
  await page.fill('#classify-delta', '2');  // refused like the rule bar's, with its reason
  assert.equal(await page.getAttribute('#delta', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('#classify-delta', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#delta-note'), /δ must be more than 0 and less than 1/);
  assert.equal((await hashState()).delta, '0.1');
  await page.fill('#delta', '0.05');  // typed in the rule bar, copied to both views
  await page.waitForFunction(() => ['testset', 'classify'].every((p) => document.getElementById(`${p}-delta`).value === '0.05'));
  await page.selectOption('#rule', 'hyper');
  await page.waitForFunction(() => document.querySelector('#urn').dataset.state === 'ready' && document.querySelector('#urn').dataset.rule === 'hyper', null, { timeout: 60_000 });
  assert.deepEqual(await shown(), [false, false]);
  await page.selectOption('#rule', 'auto');
  await page.waitForFunction(() => document.querySelector('#urn').dataset.state === 'ready' && document.querySelector('#urn').dataset.rule === 'auto', null, { timeout: 60_000 });
  assert.deepEqual(await shown(), [true, true]);
  assert.deepEqual(problems, []);
});

test('too few calibration rows: the certificate says why and how many rows it needs, and the urn explains the exact exit', { timeout: 120_000 }, async () => {
  await page.fill('#delta', '0.05');
  await train('iris', { holdout: '0.3', cal: '0.25' });
  assert.equal(await page.getAttribute('#calibrate-note', 'data-rows'), '11');
  await pick('auto', '0.99');
  const c = await certificate('urn-certificate');
  assert.equal(c.certified, 'no');
  assert.equal(c.strategy, 'exact');
  assert.match(c.text, /Not certified\. auto answers with the exact exit.* Why: too few calibration rows: 11 given, \d+ needed/);
  assert.match(c.text, /With [\d,]+ rows of calibration/);
  await page.click('#urn-finish');
  const st = await urnState();
  assert.equal(st.drawn, st.treesUsed);
  assert.equal(st.agrees, 'yes');
  assert.match(await page.textContent('#urn-verdict'), /Nothing was certified, so auto used the exact exit/);
  // No calibration rows at all: the reason says to calibrate.
  await page.selectOption('#calibrate', '0');
  await page.waitForFunction(() => document.querySelector('#calibrate-note').dataset.rows === '0' &&
    document.querySelector('#urn').dataset.state === 'ready' && !document.querySelector('#urn-certificate').hidden, null, { timeout: 60_000 });
  assert.match((await certificate('urn-certificate')).text, /Not certified\..*calibrat/);
  assert.deepEqual(problems, []);
});

test('a calibration the library refuses (AdaBoost) says why, keeps every held-out row for testing, and auto answers with the exact exit', { timeout: 120_000 }, async () => {
  await train('wdbc', { holdout: '0.3', cal: '0.5', trees: 21, ensemble: 'adaboost' });
  assert.equal(await page.getAttribute('#calibrate-note', 'data-rows'), '0');
  assert.match(await page.textContent('#calibrate-note'), /^Not calibrated: .*AdaBoost.* All 171 rows held out stay test rows/);
  await pick('auto', '0.95');
  const c = await certificate('urn-certificate');
  assert.equal(c.certified, 'no');
  assert.equal(c.strategy, 'exact');
  assert.match(c.text, /On these 171 test rows/);
  assert.deepEqual(problems, []);
});

test('views 2, 3 and 6 with rule auto pass the 390 and 1,440 px checks and axe-core (A/AA)', { timeout: 180_000 }, async () => {
  await train('wdbc', { holdout: '0.3', cal: '0.5' });
  await pick('auto', '0.9');
  await page.waitForFunction(() => document.querySelector('#test-tradeoff')?.dataset.rules === 'hyper auto lp', null, { timeout: 60_000 });
  const row = await page.$eval('#test-tradeoff', (el) => ({ ...el.dataset }));
  const calRows = await page.getAttribute('#calibrate-note', 'data-rows');
  const testRows = (await certificate('urn-certificate')).text.match(/On these (\d+) test rows/)[1];
  console.log(`# wdbc, 101 trees, ${calRows} calibration rows, ${testRows} test rows, α = 0.9, δ = 0.05 (${(await urnState()).strategy}): ` +
    ['hyper', 'auto', 'lp'].map((r) => `${r} ${Number(row[`${r}Trees`]).toFixed(1)} trees, ` +
      `${(100 * Number(row[`${r}Disagreement`])).toFixed(1)} % disagreement`).join('; '));
  for (const [name, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    for (const id of ['urn-view', 'test-view', 'classify-view']) {
      const where = `${name}, #${id}`;
      assert.deepEqual(await fieldProblems(page, id), [], `${where}: fields`);
      assert.deepEqual(await smallChartText(page, id), [], `${where}: chart text under 11 px`);
      assert.deepEqual(await brokenWords(page, id), [], `${where}: words broken inside`);
      assert.deepEqual(await axeViolations(page, id), [], `${where}: axe-core A/AA violations`);
    }
    await page.locator('#rulebar').screenshot({ path: join(ARTIFACTS, `certified-rulebar-${name}.png`) });
    await page.locator('#test-tradeoff').screenshot({ path: join(ARTIFACTS, `certified-tradeoff-${name}.png`) });
  }
  assert.deepEqual(problems, []);
});
