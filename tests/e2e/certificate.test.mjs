// End-to-end test of rule auto's certificate and rule lp's stopping region in the demo, in Debian's Chromium
// driven by playwright-core: view 7 with the bundled scikit-learn example (auto before calibration says why it
// cannot certify; after it, certified at α = 0.9, not at 0.99 for lack of rows; δ checked as typed; lp's region
// drawn), and view 2's LP region for a two-class forest trained here (none for three classes). Screenshots go to
// tests/e2e/artifacts/ (git-ignored; the ones looked at are copied to artifacts/looked-at/).
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
  ({ server, context, profile, page } = await openDemo('urnforest-certificate-', { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' }, { problems }));
});

after(() => closeDemo({ context, server, profile }));

const certificate = () => page.$eval('#byom-certificate', (el) => ({ hidden: el.hidden, text: el.textContent.replace(/\s+/g, ' '),
  certified: el.querySelector('.certificate')?.dataset.certified, strategy: el.querySelector('.certificate')?.dataset.strategy }));

/** Chooses `rule` and `alpha` in view 7 and waits for the rule's explanation to be rewritten. */
async function choose(rule, alpha) {
  await page.$eval('#byom-rule-help', (el) => { el.textContent = ''; });
  await page.selectOption('#byom-alpha', alpha);
  await page.selectOption('#byom-rule', rule);
  await page.waitForFunction(() => document.querySelector('#byom-rule-help').textContent !== '');
}

test("view 7: rule auto says why an uncalibrated model is not certified, then certifies after calibration", { timeout: 60_000 }, async () => {
  await page.click('#byom-example-rf');
  await page.waitForFunction(() => document.querySelector('#byom-view').dataset.state === 'ready');
  assert.equal(await page.isDisabled('#byom-rule'), false);
  await choose('auto', '0.9');
  assert.equal(await page.isVisible('#byom-delta'), true);
  let c = await certificate();
  assert.equal(c.hidden, false);
  assert.equal(c.certified, 'no');
  assert.equal(c.strategy, 'exact');
  assert.match(c.text, /Not certified\. .*Why: the forest is not calibrated: calibrate it on unlabeled rows first\./);
  assert.match(await page.textContent('#byom-view [data-key="disagreement"] dd'), /^0\.0\s%/);

  await page.click('#byom-calibrate');
  await page.waitForFunction(() => document.querySelector('#byom-view').dataset.calibrated === 'yes');
  await page.waitForFunction(() => document.querySelector('#byom-certificate .certificate')?.dataset.certified === 'yes');
  c = await certificate();
  assert.equal(c.strategy, 'lp');
  assert.match(c.text, /^Certified\. auto chose the LP-optimal stopping strategy of \[KM26\]/);
  assert.match(c.text, /disagreement with the full vote is at most \d+\.\d\s% \(≤ 1 − α = 10\.0\s%\), with probability at least 95\.0\s% \(1 − δ\)/);
  assert.match(c.text, /fitted on 38 rows, certified on 112 others/);
  assert.match(c.text, /Learn then Test \[ABC21\] with a betting bound \[WR24\]/);
  assert.equal(await page.getAttribute('#byom-certificate a[href="#ref-KM26"]', 'class'), 'ref');
  assert.equal(await page.getAttribute('#byom-certificate a[href$="halting.md"]', 'href'), '../docs/halting.md');
  const trees = Number(await page.getAttribute('#byom-view', 'data-stat-mean-trees'));
  assert.ok(trees >= 1 && trees < 15, `auto asks ${trees} trees of 15`);
  await page.locator('#byom-voting').screenshot({ path: join(ARTIFACTS, 'certificate-byom-certified.png') });

  await choose('auto', '0.99');
  c = await certificate();
  assert.equal(c.certified, 'no');
  assert.match(c.text, /Why: too few calibration rows: 150 given, 419 needed .*With 419 rows of calibration/);
  assert.deepEqual(problems, []);
});

test('view 7: δ is checked as it is typed and refused outside (0, 1)', async () => {
  for (const [typed, ok] of [['1', false], ['0', false], ['abc', false], ['0.1', true]]) {
    await page.fill('#byom-delta', typed);
    assert.equal(await page.getAttribute('#byom-delta', 'aria-invalid'), ok ? 'false' : 'true', `typed ${typed}`);
    assert.equal((await page.textContent('#byom-delta-note')) === '', ok, `note for ${typed}`);
  }
  await page.$eval('#byom-delta', (el) => el.dispatchEvent(new Event('change')));
  await page.waitForFunction(() => /at delta 0\.1\b/.test(document.querySelector('#byom-certificate').textContent));
  await page.selectOption('#byom-rule', 'hyper');
  assert.equal(await page.isHidden('#byom-delta'), true);
  assert.equal(await page.isHidden('#byom-certificate'), true);
});

test("view 7: rule lp draws its randomised stopping region for the two-class example", async () => {
  await choose('lp', '0.95');
  assert.equal(await page.isVisible('#byom-lp-figure'), true);
  const cells = Number(await page.getAttribute('#byom-lp .lp-region', 'data-cells'));
  assert.ok(cells > 10, `${cells} cells`);
  assert.equal(await page.$$eval('#byom-lp svg path.cell.stop', (p) => p.length) >= 2, true);
  assert.equal(await page.isHidden('#byom-certificate'), true);
  assert.match(await page.textContent('#byom-rule-help'), /lp asks the trees in a random order.*\[KM26\]/);
  await page.locator('#byom-voting').screenshot({ path: join(ARTIFACTS, 'certificate-byom-lp.png') });
  assert.deepEqual(problems, []);
});

async function train(dataset) {
  await page.selectOption('#dataset', dataset);
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.fill('#trees', '101');
  await page.fill('#seed', '1');
  await page.click('#train');
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state), null, { timeout: 20_000 });
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#urn').dataset.state), null, { timeout: 20_000 });
}

test("view 2: a two-class forest shows rule lp's stopping region beside the staircase, with the row's path", { timeout: 60_000 }, async () => {
  await train('wdbc');
  await page.waitForFunction(() => document.querySelector('#urn-lp')?.dataset.state === 'ready', null, { timeout: 20_000 });
  assert.equal(await page.isVisible('#urn-lp-figure'), true);
  const expected = Number(await page.getAttribute('#urn-lp', 'data-expected-trees'));
  assert.ok(expected >= 1 && expected < 101, `lp expects ${expected} trees of 101`);
  assert.ok(Number(await page.getAttribute('#urn-lp .lp-region', 'data-cells')) > 50);
  await page.click('#urn-finish');
  await page.waitForFunction(() => document.querySelector('#urn').dataset.state === 'halted');
  assert.equal(await page.$$eval('#urn-lp .stop-dot', (d) => d.length), 1);
  assert.notEqual(await page.getAttribute('#urn-lp .path', 'd'), '');
  await page.locator('#urn-view .panels').screenshot({ path: join(ARTIFACTS, 'certificate-urn-lp.png') });

  await train('iris');
  assert.equal(await page.isHidden('#urn-lp-figure'), true);
  assert.deepEqual(problems, []);
});

test('the certificate, the δ field and both LP regions pass the 390 and 1,440 px checks and axe-core (A/AA)', { timeout: 120_000 }, async () => {
  await train('wdbc');
  await page.waitForFunction(() => document.querySelector('#urn-lp')?.dataset.state === 'ready', null, { timeout: 20_000 });
  for (const [name, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    for (const rule of ['auto', 'lp']) {
      await choose(rule, '0.9');
      assert.equal(await page.isVisible(rule === 'auto' ? '#byom-certificate' : '#byom-lp-figure'), true);
      for (const id of ['urn-view', 'byom-view']) {
        const where = `${name}, rule ${rule}, #${id}`;
        assert.deepEqual(await fieldProblems(page, id), [], `${where}: fields`);
        assert.deepEqual(await smallChartText(page, id), [], `${where}: chart text under 11 px`);
        assert.deepEqual(await brokenWords(page, id), [], `${where}: words broken inside`);
        assert.deepEqual(await axeViolations(page, id), [], `${where}: axe-core A/AA violations`);
      }
      await page.locator('#byom-voting').screenshot({ path: join(ARTIFACTS, `certificate-byom-${rule}-${name}.png`) });
    }
    await page.locator('#urn-lp-figure').screenshot({ path: join(ARTIFACTS, `certificate-urn-lp-${name}.png`) });
  }
  assert.deepEqual(problems, []);
});
