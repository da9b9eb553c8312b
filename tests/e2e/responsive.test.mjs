// The demo at a phone's width (390 px) and a desktop's (1,440 px), in Debian's Chromium, with iris and with
// soybean (19 classes with long names) trained: in every view no input is collapsed or clipped and every
// select's options fit, chart text is at least 11 px on screen, no word is broken inside, the top bar keeps
// every view one tap away from anywhere, and axe-core finds no violation of WCAG levels A and AA.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openDemo, closeDemo } from './demo_page.mjs';
import { VIEWS, WIDTHS, axeViolations, brokenWords, fieldProblems, smallChartText } from './page_checks.mjs';

let server;
let context;
let profile;
let page;
const problems = [];

before(async () => {
  ({ server, context, profile, page } = await openDemo('urnforest-responsive-', { viewport: WIDTHS.desktop, reducedMotion: 'reduce' }, { problems }));
});

after(() => closeDemo({ context, server, profile }));

async function trainAndSettle(dataset, trees) {
  await page.setViewportSize(WIDTHS.desktop);
  await page.selectOption('#dataset', dataset);
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.fill('#trees', String(trees));
  await page.click('#train');
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state), null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#status', 'data-state'), 'ok', await page.textContent('#status'));
  await page.waitForFunction(() => ['ready', 'error', 'halted'].includes(document.querySelector('#urn').dataset.state), null, { timeout: 90_000 });
  await page.click('#urn-finish');
  await page.waitForFunction(() => document.body.dataset.computing !== 'yes', null, { timeout: 90_000 });
  await page.waitForTimeout(200);
}

async function everyViewPasses(tag, { axe = true } = {}) {
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    for (const id of VIEWS) {
      const where = `${tag} at ${size.width} px, #${id}`;
      assert.deepEqual(await fieldProblems(page, id), [], `${where}: fields`);
      assert.deepEqual(await smallChartText(page, id), [], `${where}: chart text under 11 px`);
      assert.deepEqual(await brokenWords(page, id), [], `${where}: words broken inside`);
      if (axe) assert.deepEqual(await axeViolations(page, id), [], `${where}: axe-core A/AA violations`);
    }
  }
}

test('iris, with the example model of view 7 opened: every view passes at 390 and 1,440 px', { timeout: 300_000 }, async () => {
  await trainAndSettle('iris', 51);
  await page.click('#byom-example-rf');
  await page.waitForFunction(() => !document.querySelector('#byom-results').hidden, null, { timeout: 60_000 });
  await everyViewPasses('iris');
});

test('soybean (19 classes, long names): every view passes at 390 and 1,440 px', { timeout: 300_000 }, async () => {
  await trainAndSettle('soybean', 51);
  await everyViewPasses('soybean');
});

test('from anywhere on the page every view is one tap away, and so is the top', { timeout: 120_000 }, async () => {
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    for (const from of ['references', 'urn-view', 'byom-view']) {
      for (const id of [...VIEWS, 'references', 'top']) {
        await page.evaluate((f) => document.getElementById(f).scrollIntoView(), from);
        const link = page.locator(`#topbar a[href="#${id}"]`);
        const box = await link.boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width,
          `at ${size.width} px, from #${from}: the link to #${id} is on screen (${JSON.stringify(box)})`);
        await link.click();
        const arrived = await page.waitForFunction((target) => {
          const el = document.getElementById(target);
          const bar = document.getElementById('topbar').getBoundingClientRect().bottom;
          const top = el.getBoundingClientRect().top;
          const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
          if (target === 'top') return window.scrollY === 0;
          return top >= bar - 2 && (top < bar + 40 || (atEnd && top < window.innerHeight / 2));
        }, id, { timeout: 5_000 }).then(() => true, () => false);
        const where = await page.evaluate((target) => ({ top: Math.round(document.getElementById(target).getBoundingClientRect().top),
          bar: Math.round(document.getElementById('topbar').getBoundingClientRect().bottom), y: Math.round(window.scrollY) }), id);
        assert.ok(arrived, `at ${size.width} px, from #${from}: one tap on the link brings #${id} under the top bar (${JSON.stringify(where)})`);
      }
    }
  }
  await page.setViewportSize(WIDTHS.desktop);
});

test('every control can be reached with the Tab key', async () => {
  const reached = new Set();
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement?.id || '');
    if (id) reached.add(id);
  }
  for (const id of ['dataset', 'file', 'trees', 'train', 'rule', 'alpha', 'order', 'urn-row', 'urn-play', 'testset-rule', 'classify-rule', 'classify-file']) {
    assert.ok(reached.has(id), `#${id} is reached with Tab`);
  }
});

test('the console stayed clean', () => {
  assert.deepEqual(problems, []);
});
