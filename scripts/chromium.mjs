// The browser the browser tests and benchmarks drive: Debian's Chromium through playwright-core, headless, making
// no network request of its own (no background networking, component updates or sync).
import { chromium } from 'playwright-core';

/** The Chromium executable (CHROMIUM_PATH, else Debian's). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The command-line flags of every launch (without the background-networking ones Chromium tries to reach
 * Google's hosts at start-up). */
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A headless browser (the caller closes it). */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** A headless browser context on the profile folder `profile`, with playwright's context `options` (viewport, ...). */
export function launchChromiumProfile(profile, options = {}) {
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, ...options });
}
