// The demo as a student meets it, in Debian's Chromium: every view on iris, vehicle (301 trees) and soybean,
// at a desktop (1,440 px) and a phone (390 px) width, saved as PNG in tests/e2e/artifacts/screens/ (git-ignored;
// a representative set that was looked at is committed in tests/e2e/artifacts/looked-at/). Each view must show
// sentences, never a debug string (key=value status text, a raw limit message), and nothing may stick out
// of the page. Vote-boosting with the emphasis chosen by cross-validation must move the progress bar while it
// cross-validates.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDemo, closeDemo } from './demo_page.mjs';
import { repoRoot } from '../../scripts/serve.mjs';

const SHOTS = join(repoRoot, 'tests', 'e2e', 'artifacts', 'screens');
const VIEWS = ['data-view', 'urn-view', 'test-view', 'prior-view', 'concepts-view', 'classify-view', 'byom-view'];
const WIDTHS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
// Debug strings a student must never read: key=value pairs, raw limits, error codes glued to messages.
const DEBUG = [/\b[a-z][a-zA-Z]*=[\w.]+/, /states \(limit/, /\(limit \d+\)/, /\bLimitExceeded\b/, /\bundefined\b/, /\bNaN\b/, /\[object /];

let server;
let context;
let profile;
let page;
const problems = [];

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ server, context, profile, page } = await openDemo('urnforest-screens-', { viewport: WIDTHS.desktop, reducedMotion: 'reduce' }, { problems }));
});

after(() => closeDemo({ context, server, profile }));

async function train(dataset, trees, { ensemble = 'rf', cv = false } = {}) {
  await page.setViewportSize(WIDTHS.desktop);
  await page.selectOption('#dataset', dataset);
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.selectOption('#ensemble', ensemble);
  if (ensemble === 'voteboost') await page.setChecked('#vb-cv', cv);
  await page.fill('#trees', String(trees));
  await page.fill('#seed', '1');
  await page.click('#train');
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state), null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#status', 'data-state'), 'ok', await page.textContent('#status'));
}

/** Waits until the worker has nothing left to do for the views (urn, test set, prior, pruning). */
async function settle() {
  await page.waitForFunction(() => ['ready', 'error', 'halted'].includes(document.querySelector('#urn').dataset.state), null, { timeout: 90_000 });
  await page.waitForFunction(() => document.body.dataset.computing !== 'yes', null, { timeout: 90_000 });
  await page.waitForTimeout(150);
}

/** The text of a view a student reads (visible text, button labels and SVG text). */
const viewText = (id) => page.$eval(`#${id}`, (el) => el.innerText + '\n' + [...el.querySelectorAll('svg text')].map((t) => t.textContent).join('\n'));

async function checkView(id, where) {
  const text = await viewText(id);
  for (const pattern of DEBUG) {
    const hit = text.match(pattern);
    assert.equal(hit, null, `${where}, #${id} shows a debug string: "${hit?.[0]}" in …${text.slice(Math.max(0, (hit?.index ?? 0) - 80), (hit?.index ?? 0) + 80)}…`);
  }
  const clipped = await page.$eval(`#${id}`, (view) => {
    const box = view.getBoundingClientRect();
    const out = [];
    for (const el of view.querySelectorAll('*')) {
      if (el.closest('.table-scroll') && el !== el.closest('.table-scroll')) continue; // scrolls on purpose
      if (el.closest('[hidden]') || el.closest('svg') && el.tagName !== 'svg') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className?.baseVal ?? el.className} ${r.left.toFixed(0)}–${r.right.toFixed(0)}`);
    }
    return out.slice(0, 5);
  });
  assert.deepEqual(clipped, [], `${where}, #${id}: elements stick out of the view`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `${where}: the page scrolls sideways by ${overflow} px`);
}

/** Screenshots (and checks) every view at both widths. */
async function everyView(tag) {
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(100);
    for (const id of VIEWS) {
      await checkView(id, `${tag} at ${size.width} px`);
      // The sticky top bar would be drawn over the middle of a tall view's picture: hidden in these (through
      // the CSSOM, which the page's security policy allows), shown in the next.
      await page.evaluate(() => { document.getElementById('topbar').style.visibility = 'hidden'; });
      await page.locator(`#${id}`).screenshot({ path: join(SHOTS, `${tag}-${width}-${id.replace('-view', '')}.png`) });
      await page.evaluate(() => { document.getElementById('topbar').style.visibility = ''; });
    }
    // The screen as a student sees it in the middle of the urn view: the top bar with every view one tap away.
    await page.evaluate(() => document.getElementById('urn-tally').scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: join(SHOTS, `${tag}-${width}-screen.png`) });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

/** Classifies the data set's own CSV (which has the label column): true labels and accuracy appear. */
async function classifyLabelled(dataset) {
  const { readFileSync } = await import('node:fs');
  const csv = readFileSync(join(repoRoot, 'datasets', `${dataset}.csv`));
  await page.setInputFiles('#classify-file', { name: `${dataset}.csv`, mimeType: 'text/csv', buffer: csv });
  await page.waitForFunction((name) => document.querySelector('#classify-summary').textContent.includes(`rows of ${name} classified`),
    `${dataset}.csv`, { timeout: 60_000 });
  const head = await page.$$eval('#classify-table th', (ths) => ths.map((t) => t.textContent));
  assert.ok(head.includes('true label'), `columns: ${head}`);
  assert.match(await page.textContent('#classify-summary'), /accuracy/i);
}

test('iris: every view, desktop and phone', async () => {
  await train('iris', 101);
  const line = await page.textContent('#status');
  assert.match(line, /^Trained 101 random-forest trees in [\d.]+ (ms|s)\. Test accuracy [\d.]+\s%, out-of-bag error [\d.]+\s%\.$/, line);
  await settle();
  await page.click('#urn-finish');
  await classifyLabelled('iris');
  await settle();
  await everyView('iris');
});

test('vehicle with 301 trees: every view; the optimal rule (once a raw limit banner here) runs in the urn', async () => {
  await train('vehicle', 301);
  await settle();
  await page.selectOption('#rule', 'optimal');
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#urn').dataset.state) &&
    document.querySelector('#urn').dataset.rule === 'optimal', null, { timeout: 90_000 });
  assert.equal(await page.getAttribute('#urn', 'data-state'), 'ready', await page.textContent('#urn-unavailable'));
  assert.equal(await page.isHidden('#urn-unavailable'), true);
  await page.click('#urn-finish');
  await page.locator('#urn-view').screenshot({ path: join(SHOTS, 'vehicle301-desktop-urn-optimal.png') });
  await page.selectOption('#rule', 'siba');
  await settle();
  await page.click('#urn-finish');
  await classifyLabelled('vehicle');
  await settle();
  await everyView('vehicle301');
});

test('soybean (19 classes): colours and letters tell the classes apart', async () => {
  await train('soybean', 101);
  await settle();
  await page.click('#urn-finish');
  await classifyLabelled('soybean');
  await settle();
  await everyView('soybean');
});

test('vote-boosting with a = b chosen by cross-validation: the progress bar moves while it cross-validates', async () => {
  await page.setViewportSize(WIDTHS.desktop);
  await page.selectOption('#dataset', 'wdbc');
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.selectOption('#ensemble', 'voteboost');
  await page.setChecked('#vb-cv', true);
  await page.fill('#trees', '51');
  await page.evaluate(() => {
    const bar = document.querySelector('#progress');
    window.__progress = [];
    new MutationObserver(() => window.__progress.push({ phase: bar.dataset.phase, value: bar.value,
      text: document.querySelector('#progress-text').textContent })).observe(bar, { attributes: true, attributeFilter: ['data-updates'] });
  });
  await page.click('#train');
  await page.waitForFunction(() => document.querySelector('#progress')?.dataset.phase === 'cv');
  await page.waitForFunction(() => window.__progress.filter((p) => p.phase === 'cv').length >= 3, null, { timeout: 60_000 });
  await page.locator('#data-view').screenshot({ path: join(SHOTS, 'wdbc-desktop-data-cross-validating.png') });
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state), null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#status', 'data-state'), 'ok', await page.textContent('#status'));
  const events = await page.evaluate(() => window.__progress);
  const cv = events.filter((p) => p.phase === 'cv');
  const values = cv.map((p) => p.value);
  console.log(`# ${cv.length} progress updates while cross-validating, from ${values[0].toFixed(3)} to ${values.at(-1).toFixed(3)}`);
  assert.ok(new Set(values).size >= 3, `the bar moved during cross-validation: ${values}`);
  for (let i = 1; i < values.length; i++) assert.ok(values[i] >= values[i - 1], `the bar never moves back: ${values}`);
  assert.match(cv[0].text, /^Cross-validating a = b: \d+ values × 10 folds = \d+ ensembles of 51 trees/);
  assert.ok(events.some((p) => p.phase === 'train'), 'then the final forest\'s trees');
  assert.equal(events.at(-1).phase, 'done');
  assert.match(await page.textContent('#status'), /^Trained 51 vote-boosted trees in [\d.]+ m?s\. .* Cross-validation chose a = b = [\d.]+\.$/);
  await page.selectOption('#ensemble', 'rf');
});

test('the console stayed clean', () => {
  assert.deepEqual(problems, []);
});
