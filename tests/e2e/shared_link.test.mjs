// Shareable state, in Debian's Chromium: three addresses a teacher could send (a data set, ensemble, trees,
// seed, rule, α, order, row and view in the hash) each open the page in that state; training in the page
// writes the state into the address; a student's own file never goes in it. And the form says why before
// Train: numbers checked as typed, a one-class CSV refused when it is opened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDemo, closeDemo } from './demo_page.mjs';

let server;
let context;
let profile;
let page;
const problems = [];

before(async () => {
  ({ server, context, profile, page } = await openDemo('urnforest-shared-', { viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' }, { problems, ready: false }));
});

after(() => closeDemo({ context, server, profile }));

/** Opens the demo at `hash` (in a fresh document) and waits until its model is trained and the urn drawn. */
async function open(hash) {
  await page.goto('about:blank');
  await page.goto(`${server.url}${hash}`);
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state), null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#status', 'data-state'), 'ok', await page.textContent('#status'));
  await page.waitForFunction(() => ['ready', 'error', 'halted'].includes(document.querySelector('#urn').dataset.state), null, { timeout: 90_000 });
}

const values = (ids) => page.evaluate((list) => Object.fromEntries(list.map((id) => [id, document.getElementById(id).value])), ids);

async function inView(id) {
  return page.evaluate((target) => {
    const top = document.getElementById(target).getBoundingClientRect().top;
    return top >= 0 && top < window.innerHeight / 2;
  }, id);
}

test('a link to iris, 51 random-forest trees, hyper at α = 0.95 in random order, row 5 of the urn', { timeout: 180_000 }, async () => {
  await open('#data=iris&ensemble=rf&trees=51&seed=7&rule=hyper&alpha=0.95&order=random&row=5&view=urn-view');
  assert.deepEqual(await values(['dataset', 'ensemble', 'trees', 'seed', 'rule', 'alpha', 'order']),
    { dataset: 'iris', ensemble: 'rf', trees: '51', seed: '7', rule: 'hyper', alpha: '0.95', order: 'random' });
  assert.equal(await page.getAttribute('#status', 'data-trees'), '51');
  await page.waitForFunction(() => document.querySelector('#urn-row').value === '5');
  await page.waitForFunction(() => document.querySelector('#urn').dataset.rule === 'hyper', null, { timeout: 60_000 });
  assert.ok(await inView('urn-view'), 'the urn view is on screen');
  assert.match(await page.textContent('#share-note'), /^Opened from a shared link\./);
});

test('a link to wine, 31 bagged trees, 20 % test rows, siba at α = 0.9, on the test-set view', { timeout: 180_000 }, async () => {
  await open('#data=wine&ensemble=bagging&trees=31&seed=3&test=0.2&rule=siba&alpha=0.9&order=generation&row=2&view=test-view');
  assert.deepEqual(await values(['dataset', 'ensemble', 'trees', 'holdout', 'rule', 'alpha', 'testset-rule', 'testset-alpha', 'classify-alpha']),
    { dataset: 'wine', ensemble: 'bagging', trees: '31', holdout: '0.2', rule: 'siba', alpha: '0.9', 'testset-rule': 'siba', 'testset-alpha': '0.9', 'classify-alpha': '0.9' });
  assert.match(await page.textContent('#m-model'), /^Bagged ensemble of 31 trees/);
  assert.equal(await page.$eval('#urn-row', (el) => el.value), '2');
  assert.ok(await inView('test-view'), 'the test-set view is on screen');
});

test('a link to the generated circle with an even number of trees and a rule the page does not have', { timeout: 180_000 }, async () => {
  await open('#data=gen%3Acircle&ensemble=rf&trees=20&seed=2&rule=nosuchrule&alpha=0.99&order=generation&row=3&view=classify-view');
  assert.equal(await page.$eval('#dataset', (el) => el.value), 'gen:circle');
  assert.equal(await page.getAttribute('#status', 'data-trees'), '21', 'an even 20 trains 21 trees');
  assert.match(await page.textContent('#trees-note'), /^21 trees will be trained: an odd number/);
  assert.match(await page.textContent('#share-note'), /the rule "nosuchrule", which this page does not have/);
  assert.equal(await page.$eval('#urn-row', (el) => el.value), '3');
  assert.ok(await inView('classify-view'), 'the classify view is on screen');
});

test('training writes the state into the address; a change of rule or row updates it', { timeout: 120_000 }, async () => {
  await page.goto('about:blank');
  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.fill('#trees', '25');
  await page.click('#train');
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ok', null, { timeout: 60_000 });
  let state = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  assert.equal(state.data, 'iris');
  assert.equal(state.trees, '25');
  await page.selectOption('#alpha', '0.999');
  await page.fill('#urn-row', '4');
  await page.dispatchEvent('#urn-row', 'change');
  state = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  assert.equal(state.alpha, '0.999');
  assert.equal(state.row, '4');
  await page.click('#topbar a[href="#prior-view"]');
  state = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  assert.equal(state.view, 'prior-view');
});

test('a model trained on the student\'s own file leaves the address empty', { timeout: 120_000 }, async () => {
  const csv = 'a,b,label\n' + Array.from({ length: 40 }, (_, i) => `${i},${(i * 7) % 13},${i < 20 ? 'lo' : 'hi'}`).join('\n') + '\n';
  await page.setInputFiles('#file', { name: 'mine.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.click('#train');
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ok', null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => location.hash), '');
  assert.match(await page.textContent('#share-note'), /not put in the address/);
});

test('the numbers are checked as they are typed, with the reason beside the field', async () => {
  const note = () => page.textContent('#trees-note');
  for (const [typed, pattern, ok] of [['100', /^101 trees will be trained: an odd number/, true], ['0', /^A forest needs at least 1 tree\.$/, false],
    ['5000', /^At most 1,001 trees in this page \(you typed 5,000\)/, false], ['1.5', /^Type a whole number of trees/, false], ['101', /^$/, true]]) {
    await page.fill('#trees', typed);
    assert.match(await note(), pattern, `typed ${typed}`);
    assert.equal(await page.isDisabled('#train'), !ok, `typed ${typed}: Train ${ok ? 'enabled' : 'disabled'}`);
    assert.equal(await page.getAttribute('#trees', 'aria-invalid'), ok ? 'false' : 'true');
  }
  await page.fill('#seed', '-1');
  assert.match(await page.textContent('#seed-note'), /whole number/);
  assert.equal(await page.isDisabled('#train'), true);
  await page.fill('#seed', '1');
  assert.equal(await page.isDisabled('#train'), false);
});

test('a CSV with one class is refused when it is opened, not at Train', async () => {
  const csv = 'a,b,label\n' + Array.from({ length: 30 }, (_, i) => `${i},${i % 7},same`).join('\n') + '\n';
  await page.setInputFiles('#file', { name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'error');
  assert.match(await page.textContent('#data-error'), /only one class \("same"\); a classifier needs rows of at least two classes/);
  assert.equal(await page.isDisabled('#train'), true);
});

test('the console stayed clean', () => {
  assert.deepEqual(problems, []);
});
