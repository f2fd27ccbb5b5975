import { chromium, type Browser } from 'playwright-core';

/** The browser of the console scenarios: `CUSTOPS_CHROMIUM` (default /usr/bin/chromium), headless, with no background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CUSTOPS_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
