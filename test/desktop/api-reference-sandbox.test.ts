/**
 * The API reference (/api/docs) is third-party code (Swagger UI) on the service's origin.
 * Opened in the same browser tab as a signed-in web UI, it must not get the tab's access
 * token: the service sends it with a Content-Security-Policy `sandbox`, so real Chromium
 * runs it in an opaque origin without the UI's session storage, and its requests to the API
 * are cross-origin ones the service does not allow. The desktop window keeps that sandbox
 * (test/desktop/shell-guards.test.ts) and never shows the page itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, startApp, type Browser, type RunningApp } from '../e2e/support/app.js';

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), openBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the API reference opened in the tab of a signed-in web UI', () => {
  it('gets no access token from the UI and cannot call the API with it', async () => {
    const { page } = browser;
    await page.goto(app.signInUrl);
    const token = await page.waitForFunction(() => sessionStorage.getItem('traitscope.token'), undefined, {
      timeout: 60_000,
    });
    // The precondition: the UI keeps the tab's token where a same-origin page could read it.
    expect(await token.jsonValue()).toMatch(/\S{20,}/);

    await page.goto(`${app.origin}/api/docs`);
    await page.getByText('getVersion').first().waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(async () => {
      let storage: string;
      try {
        storage = `read: ${String(sessionStorage.getItem('traitscope.token'))}`;
      } catch (err) {
        storage = `refused: ${(err as Error).name}`;
      }
      let clients: string;
      try {
        const res = await fetch('/api/app/clients/', { credentials: 'include' });
        clients = `answered ${res.status}`;
      } catch (err) {
        clients = `refused: ${(err as Error).name}`;
      }
      return { origin: self.origin, storage, clients };
    });
    expect(seen).toEqual({ origin: 'null', storage: 'refused: SecurityError', clients: 'refused: TypeError' });
  });

  it('still shows the whole reference, its links working', async () => {
    const { page } = browser;
    await page.goto(`${app.origin}/api/docs`);
    await page.getByText('getVersion').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await page.getByRole('link', { name: 'version', exact: true }).click();
    await page.waitForURL(`${app.origin}/api/version`);
    expect(await page.textContent('body')).toContain('api_version');
  });
});
