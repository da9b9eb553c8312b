// Browser smoke test: the demo in Debian's Chromium (headless, driven by playwright-core), served by
// scripts/serve.mjs on 127.0.0.1. Trains on iris, checks the #status sentence and its data-* numbers, and checks
// that no request left the local server (DESIGN contract 6).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromiumProfile } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

let server;
let context;
let profile;

before(async () => {
  server = await startServer();
  profile = mkdtempSync(join(tmpdir(), 'urnforest-chromium-'));
  context = await launchChromiumProfile(profile);
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('the demo trains a forest on iris in Chromium without leaving 127.0.0.1', { timeout: 60_000 }, async () => {
  const page = context.pages()[0] ?? await context.newPage();
  const requests = [];
  const problems = [];
  page.on('request', (req) => requests.push(req.url()));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });

  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
  await page.selectOption('#dataset', 'iris');
  await page.fill('#trees', '51');
  await page.fill('#seed', '7');
  await page.click('#train');
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('#status')?.dataset.state));
  const status = await page.textContent('#status');
  assert.match(status, /^Trained 51 random-forest trees in [\d.]+ m?s\. Test accuracy [\d.]+\s%, out-of-bag error [\d.]+\s%\.$/, status);
  const fields = await page.$eval('#status', (el) => ({ ...el.dataset }));
  assert.equal(Number(fields.trees), 51);
  assert.ok(Number(fields.accuracy) >= 0.85, `holdout accuracy ${fields.accuracy}`);
  assert.ok(Number(fields.oob) >= 0 && Number(fields.oob) < 0.15, `oob error ${fields.oob}`);
  assert.deepEqual(problems, []);

  const origin = `${server.origin}/`;
  const foreign = requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'every request stays on the local server');
  assert.ok(requests.some((url) => url.endsWith('/dist/index.js')), 'the page loaded the package');
});
