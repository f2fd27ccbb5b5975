import type { BrowserContext, Page } from 'playwright-core';

/** What to watch for in a page: an element matching `selector` (and, with `text`, whose trimmed text matches that regular expression). */
export interface Appearance {
  selector: string;
  text?: string;
}

/**
 * Times taken in the page itself, in milliseconds since its navigation started (`performance.now()`):
 * when each watched element first appears in the DOM (a MutationObserver installed before the page's
 * own scripts), and when the last form submit, click and change (of a form field) happened. Playwright's waits poll at 0, 20,
 * 70, 170, 270 ms and then every 500 ms, so timing with them adds up to 100–500 ms that belong to
 * the poll, not to the page; the waits still gate the bench, these marks measure it.
 * Added to a context, this runs in every document the context loads.
 */
export async function watchAppearances(context: BrowserContext, watched: Record<string, Appearance>): Promise<void> {
  await context.addInitScript(`(() => {
    const watched = ${JSON.stringify(watched)};
    const marks = (window.__benchMarks = {});
    const pending = new Set(Object.keys(watched));
    const patterns = Object.fromEntries(Object.entries(watched).map(([name, w]) => [name, w.text === undefined ? null : new RegExp(w.text)]));
    const matches = (name) => {
      for (const el of document.querySelectorAll(watched[name].selector)) if (!patterns[name] || patterns[name].test(el.textContent.trim())) return true;
      return false;
    };
    const check = () => {
      for (const name of pending) if (matches(name)) { marks[name] = performance.now(); pending.delete(name); }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    document.addEventListener('submit', () => (marks.submit = performance.now()), true);
    document.addEventListener('click', () => (marks.click = performance.now()), true);
    document.addEventListener('change', () => (marks.change = performance.now()), true);
  })()`);
}

/** The marks of the page's current document (see `watchAppearances`). */
export async function appearanceMarks(page: Page): Promise<Record<string, number>> {
  return page.evaluate<Record<string, number>>('window.__benchMarks ?? {}');
}
