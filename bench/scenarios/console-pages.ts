import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { seedConsoleAccount, type ConsoleAccount } from '../lib/console-data.ts';
import { launchBrowser } from '../../test/browser/helpers/browser.ts';
import { appearanceMarks, watchAppearances } from '../lib/browser.ts';
import { log, startServiceChild } from '../lib/processes.ts';
import type { BenchOptions } from '../lib/types.ts';

export const name = 'console-pages';
export const description =
  'Console navigation in Chromium (full page loads, signed in): the pipeline board, the deals table, a deal page and the analytics ' +
  'page, time until the content is rendered, p50/p99 over 20 loads each, on an account with 100,000 deals and 300,000 activities ' +
  '(SQLite); baseline: the same pages on an account of 1,000 deals in the same database and server. Goals: p50 under 300 ms, ' +
  'p99 under 1 s each, the board flat in deal count (figures: docs/scaling.md, "The console in a browser").';

const BIG = 100_000;
const SMALL = 1_000;
const LOADS = 20;

interface Target {
  page: string;
  path: (a: ConsoleAccount) => string;
  /** Every one of these is on screen once the page's content (not a loading state) is rendered. */
  rendered: string[];
}

const STATUSES = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
const TARGETS: Target[] = [
  { page: 'board', path: () => '/pipeline', rendered: STATUSES.map((s) => `section[data-status="${s}"] :is(li.card, .state-empty)`) },
  { page: 'deals_table', path: () => '/deals', rendered: ['table tbody tr'] },
  {
    page: 'deal_page',
    path: (a) => `/deals/${a.dealId}`,
    rendered: ['h1', 'ol[aria-label="Timeline"] li, .timeline .state-empty', 'ol[aria-label="Status history"] li'],
  },
  {
    page: 'analytics',
    path: () => '/analytics?range=this_year',
    // The six reports' figures and tables (a panel renders only with its data), and the charts drawn:
    // the chart code loads after the tables, and a dashboard is not on screen until its pictures are.
    rendered: [
      ...['sales', 'support', 'team', 'customers', 'mix', 'trends'].map((id) => `#${id}-heading`),
      'section[aria-labelledby="trends-heading"] .chart-canvas canvas[data-drawn]',
    ],
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function signIn(page: Page, url: string, a: ConsoleAccount): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await page.getByLabel('Email').fill(a.email);
  await page.getByLabel('Password').fill(a.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
}

/** LOADS full navigations to each page, after one unmeasured warm-up load; milliseconds from the navigation's start to rendered content. */
async function measure(browser: Browser, url: string, a: ConsoleAccount) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Every rendered selector of every target, timed by the page itself (see watchAppearances).
  const watched = Object.fromEntries(TARGETS.flatMap((t) => t.rendered.map((selector, k) => [`${t.page}.${k}`, { selector }])));
  await watchAppearances(context, watched);
  const page = await context.newPage();
  try {
    await signIn(page, url, a);
    const out: Record<string, { p50_ms: number; p99_ms: number; loads: number }> = {};
    for (const t of TARGETS) {
      const times: number[] = [];
      for (let i = 0; i <= LOADS; i++) {
        await page.goto(url + t.path(a), { waitUntil: 'commit' });
        // Locator waits run in Playwright's own script world (page.waitForFunction would need eval, which the CSP forbids).
        await Promise.all(t.rendered.map((selector) => page.locator(selector).first().waitFor({ timeout: 30_000 })));
        // Rendered when the last of them appeared, in milliseconds since this page's navigation started.
        const marks = await appearanceMarks(page);
        const at = t.rendered.map((_, k) => marks[`${t.page}.${k}`]);
        if (at.some((v) => typeof v !== 'number')) throw new Error(`${name}: ${t.page} marks missing (${JSON.stringify(marks)})`);
        if (i > 0) times.push(Math.max(...at));
      }
      times.sort((x, y) => x - y);
      out[t.page] = { p50_ms: Math.round(percentile(times, 50)), p99_ms: Math.round(percentile(times, 99)), loads: times.length };
    }
    return out;
  } finally {
    await context.close();
  }
}

export async function run(_options: BenchOptions): Promise<void> {
  if (!existsSync(join('web', 'dist', 'index.html'))) throw new Error('web/dist is missing: run npm ci (or npm run build:web) first');
  const dir = mkdtempSync(join(tmpdir(), 'custops-bench-console-'));
  try {
    const dbFile = join(dir, 'bench.db');
    const handle = openDatabase(`sqlite:${dbFile}`);
    const started = Date.now();
    let big: ConsoleAccount;
    let small: ConsoleAccount;
    try {
      await migrateToLatest(handle.db);
      big = await seedConsoleAccount(handle, BIG, 'Big Co');
      small = await seedConsoleAccount(handle, SMALL, 'Small Co');
    } finally {
      await handle.close();
    }
    log(`${name}: seeded ${big.counts.deals} deals / ${big.counts.deal_activities} activities and ${small.counts.deals} deals in ${Date.now() - started} ms`);
    const server = await startServiceChild({
      DATABASE_URL: `sqlite:${dbFile}`,
      CUSTOPS_DATA_DIR: dir,
    });
    const browser = await launchBrowser();
    try {
      // Alternating accounts would interleave caches; each account gets its own context and a warm-up load per page.
      const baseline = await measure(browser, server.url, small);
      const result = await measure(browser, server.url, big);
      const ratio = Object.fromEntries(TARGETS.map((t) => [t.page, Math.round((result[t.page].p50_ms / baseline[t.page].p50_ms) * 100) / 100]));
      const goals = Object.fromEntries(TARGETS.map((t) => [t.page, result[t.page].p50_ms < 300 && result[t.page].p99_ms < 1000]));
      process.stdout.write(
        JSON.stringify({
          scenario: name,
          deals: big.counts.deals,
          activities: big.counts.deal_activities,
          ...result,
          baseline: { deals: small.counts.deals, ...baseline },
          ratio,
          goals_met: goals,
        }) + '\n',
      );
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
