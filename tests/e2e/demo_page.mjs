// The set-up most demo tests share: serve the repository, launch Debian's Chromium on a fresh profile
// (playwright-core, scripts/chromium.mjs), open the demo and wait until it says it is ready, collecting
// page errors and console errors; and the tear-down that undoes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromiumProfile } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

/**
 * Opens the demo in a new Chromium profile (folder name starting with `prefix`) launched with `launch`
 * (playwright's persistent-context options: viewport, reducedMotion, acceptDownloads...). Page errors and
 * console errors are pushed to `problems` as text. `onPage(page)` runs before the demo is loaded (to
 * listen to requests). With `ready` false the page is left blank. Returns { server, context, profile, page };
 * give it to closeDemo when done.
 */
export async function openDemo(prefix, launch, { problems, onPage, ready = true } = {}) {
  const opened = { server: await startServer() };
  try {
    opened.profile = mkdtempSync(join(tmpdir(), prefix));
    opened.context = await launchChromiumProfile(opened.profile, launch);
    const page = opened.context.pages()[0] ?? await opened.context.newPage();
    opened.page = page;
    onPage?.(page);
    if (problems) {
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text().slice(0, 300)}`); });
    }
    if (ready) {
      await page.goto(opened.server.url);
      await page.waitForFunction(() => document.querySelector('#status')?.dataset.state === 'ready');
    }
    return opened;
  } catch (e) {
    await closeDemo(opened);  // nothing left running when set-up fails half-way
    throw e;
  }
}

/** Closes what openDemo opened (any part may be missing when set-up failed) and removes the profile. */
export async function closeDemo({ context, server, profile } = {}) {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
}
