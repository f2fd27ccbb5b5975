import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe, { type AxeResults } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { ConsoleUser } from './server.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** Screenshots of every page, for people to look at; ignored by git. */
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
export const CHROMIUM = process.env.CUSTOPS_CHROMIUM ?? '/usr/bin/chromium';

/** Per browser test: a hung browser fails the test instead of stalling `npm test`. */
export const BROWSER_TEST = { timeout: 300_000 };

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * Chromium features switched off, Playwright's own list included: Chromium keeps only the last
 * `--disable-features`, so a list given here replaces Playwright's default one (kept below, from
 * playwright-core's chromiumSwitches). Added to it: the WebUI omnibox popup, which Chromium 156
 * builds for every new window, so here for every new context, in a renderer of its own that loads
 * some 400 chrome:// modules while the page under test loads; a visitor's browser builds it once per
 * window. Without it a browser test file costs about 15 % less CPU (sign-in: 5.7 → 4.9 s), and the
 * console bench's cold load went from 660 and 588 ms to 509 and 479 ms (same run, load 13–14).
 */
const DISABLED_FEATURES = [
  // Playwright's defaults.
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  // Ours.
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
];

/** Debian's Chromium (`CUSTOPS_CHROMIUM` to use another), headless, with no background traffic (`playwright install` is not used: the system browser is); the browser tests' and the console benches'. */
export async function launchBrowser(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CUSTOPS_CHROMIUM`);
  return chromium.launch({
    executablePath: CHROMIUM,
    timeout: 60_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
}

export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
  storageState?: BrowserContextOptions['storageState'],
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport, storageState });
  context.setDefaultTimeout(20_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  return context;
}

/** Fails the test on any uncaught page error or console error (an XSS payload that ran would show here too). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // The browser logs failed requests (a 401 while signed out, a 403 the test provokes): those are expected answers.
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(`console: ${msg.text()}`);
  });
  return errors;
}

export async function signIn(page: Page, user: ConsoleUser, landing = /\/deals$/): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(landing);
}

/**
 * axe-core over the page (or an open dialog): no serious or critical violation.
 *
 * Every rule runs, on the whole document; only violations are collected (axe skips the node
 * details of passing and inapplicable rules). axe-core is put into the page once per document and
 * run there with `axe.run`. Written here rather than with `@axe-core/playwright`'s AxeBuilder: its
 * check evaluates axe-core's 560 kB source twice and configures it again every time, also in a
 * document that has it; the console has no frames, so one `axe.run` in the page gives the same
 * violations at about half the time (a 60-row page: 670–910 ms a check against 300–560 ms).
 */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate<boolean>('typeof window.axe?.run === "function"'))) await page.evaluate(axe.source);
  const result = await page.evaluate<AxeResults>("axe.run(document, { resultTypes: ['violations'] })");
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} @ ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    ),
    [],
    `accessibility violations on ${label}`,
  );
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

// Evaluated in the page (as strings: the test code is compiled without the DOM library).
export const focused = {
  text: (page: Page) => page.evaluate<string | null>('document.activeElement?.textContent ?? null'),
  name: (page: Page) => page.evaluate<string | null>('document.activeElement?.getAttribute("name") ?? null'),
  label: (page: Page) => page.evaluate<string | null>('document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? null'),
};

/** Pixels the page scrolls sideways (0 when it fits the viewport). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

// The accessible name of the focused element, as near as a test needs: aria-label, aria-labelledby,
// the <label> of a form field, else the text.
const FOCUSED_NAME = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const label = el.getAttribute('aria-label');
  if (label) return label;
  const by = el.getAttribute('aria-labelledby');
  if (by) return by.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
  if (el.labels && el.labels.length) return el.labels[0].textContent.trim();
  return (el.textContent ?? '').trim();
})()`;

/**
 * Keyboard only: presses Tab (Shift+Tab with `back`) until the focused element's name is `name`
 * (a string matches exactly), none if it has focus already; fails the test when `max` presses do not reach it.
 */
export async function tabTo(page: Page, name: string | RegExp, options: { back?: boolean; max?: number } = {}): Promise<void> {
  const seen: (string | null)[] = [];
  for (let i = 0; i <= (options.max ?? 60); i++) {
    if (i > 0) await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const now = await page.evaluate<string | null>(FOCUSED_NAME);
    if (now !== null && (typeof name === 'string' ? now === name : name.test(now))) return;
    seen.push(now);
  }
  assert.fail(`Tab did not reach ${name}; focus went through ${JSON.stringify(seen)}`);
}

/** Keyboard only: Tab to the control named `name`, then press `key` (Enter by default). */
export async function pressOn(page: Page, name: string | RegExp, key = 'Enter'): Promise<void> {
  await tabTo(page, name);
  await page.keyboard.press(key);
}
