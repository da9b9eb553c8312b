// Long background work the student can see and stop, in Debian's Chromium: with vehicle and 1,001 trees,
// the optimal rule's prior and table take many seconds; the top bar says what runs and for how long, its
// Cancel stops it (the worker's job control), and the next rule asked for runs normally.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openDemo, closeDemo } from './demo_page.mjs';

let server;
let context;
let profile;
let page;

before(async () => {
  ({ server, context, profile, page } = await openDemo('urnforest-cancel-', { viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' }));
});

after(() => closeDemo({ context, server, profile }));

test('vehicle with 1,001 trees: the optimal rule\'s work shows its time and can be cancelled', { timeout: 300_000 }, async () => {
  await page.selectOption('#dataset', 'vehicle');
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.fill('#trees', '1001');
  await page.click('#train');
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state), null, { timeout: 240_000 });
  assert.equal(await page.getAttribute('#status', 'data-state'), 'ok', await page.textContent('#status'));
  await page.waitForFunction(() => document.body.dataset.computing !== 'yes', null, { timeout: 120_000 });

  await page.selectOption('#rule', 'optimal');
  await page.waitForFunction(() => document.body.dataset.computing === 'yes');
  await page.waitForFunction(() => / [1-9]\d* s so far\.$/.test(document.querySelector('#work').textContent), null, { timeout: 10_000 });
  const cancel = page.locator('#work-cancel');
  const box = await cancel.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, 'Cancel is on screen (in the top bar) wherever the page is scrolled');
  const ran = await page.textContent('#work');
  const clicked = Date.now();
  await cancel.click();
  await page.waitForFunction(() => document.body.dataset.computing === 'no', null, { timeout: 5_000 });
  console.log(`# cancelled "${ran}" in ${Date.now() - clicked} ms`);
  assert.match(await page.textContent('#work'), /^Cancelled after \d+ s: /);

  await page.selectOption('#rule', 'siba');
  await page.waitForFunction(() => document.querySelector('#urn').dataset.rule === 'siba' &&
    ['ready', 'halted'].includes(document.querySelector('#urn').dataset.state), null, { timeout: 120_000 });
});
