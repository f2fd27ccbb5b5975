import type { Page } from 'playwright-core';
import type { ConsoleTest } from '../helpers/console.ts';

/** An org with a contact, through the API. */
export async function orgWithContact(env: Pick<ConsoleTest, 'create'>, name: string, email: string): Promise<{ org: any; contact: any }> {
  const org = await env.create('/api/v1/orgs', { name });
  const contact = await env.create('/api/v1/contacts', { org_id: org.id, name: `${name} buyer`, email });
  return { org, contact };
}

/**
 * Waits until a page expression is true. (page.waitForFunction compiles its string with eval,
 * which the console's Content-Security-Policy forbids; page.evaluate does not need eval.)
 */
export async function waitForTrue(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
