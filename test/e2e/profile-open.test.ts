/**
 * Opening a profile in real Chromium against the real headless service: the page asks for
 * each thing it shows once (no duplicate and no aborted request, whether the profile is
 * opened from the sidebar, opened again, or loaded by its address), and after a visit to a
 * result, Back returns the keyboard to the row the person left, not to the top of the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import type { Profile } from '../../src/shared/api.js';
import { openBrowser, startApp, uploadThroughApi, type Browser, type RunningApp } from './support/app.js';
import { personFile } from '../support/genotypes.js';

let app: RunningApp;
let browser: Browser;
let profile: Profile;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), openBrowser()]);
  profile = (await app.api<Profile>('POST', '/profiles/', { first_name: 'Ada', last_name: 'Lovelace', gender: 2 }))
    .body;
  await uploadThroughApi(app, profile.id, personFile({ seed: 11 }));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The service's requests the page sends from now on (the long-lived event stream aside), and how each ended. */
function recordRequests(page: Page) {
  const sent: string[] = [];
  const failed: string[] = [];
  const pending = new Set<Request>();
  const line = (r: Request) => {
    const url = new URL(r.url());
    return `${r.method()} ${url.pathname}${url.search}`;
  };
  const isService = (r: Request) => {
    const url = new URL(r.url());
    return url.pathname.startsWith('/api/') && url.pathname !== '/api/events';
  };
  const onRequest = (r: Request) => {
    if (!isService(r)) return;
    sent.push(line(r));
    pending.add(r);
  };
  const onFinished = (r: Request) => pending.delete(r);
  const onFailed = (r: Request) => {
    if (!pending.delete(r)) return;
    failed.push(`${line(r)} (${r.failure()?.errorText ?? 'failed'})`);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  return {
    sent,
    failed,
    /** Sent more than once. */
    duplicates: () => sent.filter((s, i) => sent.indexOf(s) !== i),
    /** Resolves once no request is under way at the end of a frame. */
    async settled(): Promise<void> {
      for (;;) {
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
        if (pending.size === 0) return;
        // The next end of a request (nothing can end between the check above and these listeners).
        await new Promise<void>((resolve) => {
          const ended = () => {
            page.off('requestfinished', ended);
            page.off('requestfailed', ended);
            resolve();
          };
          page.on('requestfinished', ended);
          page.on('requestfailed', ended);
        });
      }
    },
    stop() {
      page.off('request', onRequest);
      page.off('requestfinished', onFinished);
      page.off('requestfailed', onFailed);
    },
  };
}

/** Waits until the profile's page shows its results, notable ones and findings included. */
async function resultsShown(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
  await page.getByTestId('trait-browser').locator('.trait-row[data-status=computed]').first().waitFor();
  await page.getByTestId('summary').waitFor();
  await page.getByTestId('findings').waitFor();
}

/** What identifies the focused element: its tag, link target or accessible text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return `${el.tagName} ${el.id} ${el.getAttribute('href') ?? ''} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 60)}`;
  });
}

describe('opening a profile', () => {
  it('asks for each list once, with no duplicate and no aborted request, from the sidebar', async () => {
    const { page } = browser;
    await page.goto(app.signInUrl);
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    const requests = recordRequests(page);
    try {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /Ada Lovelace/ })
        .click();
      await resultsShown(page);
      await requests.settled();
      expect(requests.failed).toEqual([]);
      expect(requests.duplicates()).toEqual([]);
      // The two lists the page is drawn from were asked for.
      expect(requests.sent).toContain(`GET /api/profiles/${profile.id}/traits/?score=&view=compact`);
      expect(requests.sent).toContain(`GET /api/profiles/${profile.id}/traits/?view=compact`);
    } finally {
      requests.stop();
    }
  });

  it('asks for nothing twice when the profile is opened again', async () => {
    const { page } = browser;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Traitscope' }).click();
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    const requests = recordRequests(page);
    try {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /Ada Lovelace/ })
        .click();
      await resultsShown(page);
      await requests.settled();
      expect(requests.failed).toEqual([]);
      expect(requests.duplicates()).toEqual([]);
    } finally {
      requests.stop();
    }
  });

  it('asks for each list once when the page is loaded at the profile’s address', async () => {
    const { page } = browser;
    const requests = recordRequests(page);
    try {
      await page.reload();
      await resultsShown(page);
      await requests.settled();
      expect(requests.failed).toEqual([]);
      expect(requests.duplicates()).toEqual([]);
      expect(requests.sent).toContain(`GET /api/profiles/${profile.id}/traits/?score=&view=compact`);
    } finally {
      requests.stop();
    }
  });
});

describe('coming back from a result', () => {
  it('returns focus to the row the person left: after Back, Tab goes to the element after that row', async () => {
    const { page } = browser;
    await resultsShown(page);
    const link = page.locator('.trait-row[data-status=computed] a.trait-name').nth(6);
    const href = (await link.getAttribute('href'))!;
    await link.focus();
    const row = await focused(page);
    // What a keyboard user reaches next from that row, and back to it.
    await page.keyboard.press('Tab');
    const next = await focused(page);
    expect(next).not.toBe(row);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe(row);

    await page.keyboard.press('Enter');
    await page.getByTestId('assessment-view').getByRole('heading', { level: 1 }).waitFor();
    await page.goBack();
    await page.getByTestId('trait-browser').waitFor();
    await page.waitForFunction((target) => document.activeElement?.getAttribute('href') === target, href);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(next);
  });
});
