/**
 * Settings › API access: a client created in the UI shows its secret once and really works
 * against the token endpoint; revoking it in the UI really locks it out. Each test opens the
 * settings itself and makes what it needs (the revoke test its own client when the create
 * test has not run), so any one runs alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, startApp, unlabeledControls, type Browser, type RunningApp } from './support/app.js';

describe('API clients', () => {
  let app: RunningApp;
  let browser: Browser;
  /** The client the create test made in the UI, with the secret it showed once. */
  let created: { clientId: string; clientSecret: string } | null = null;

  const tokenRequest = (client: { clientId: string; clientSecret: string }) =>
    fetch(`${app.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        audience: `${app.origin}/api/profiles`,
        grant_type: 'client_credentials',
      }),
    });

  /** The "Lab notebook" client: the one the create test made, else one made now through the API. */
  async function labNotebook(): Promise<{ clientId: string; clientSecret: string }> {
    if (created) return created;
    const { status, body } = await app.api<{ client_id: string; client_secret: string }>('POST', '/app/clients/', {
      name: 'Lab notebook',
      scopes: ['read:profiles'],
      free_traits: ['height'],
    });
    expect(status).toBe(201);
    return (created = { clientId: body.client_id, clientSecret: body.client_secret });
  }

  /** The settings page, loaded afresh (a hash-only navigation would keep what the page last read). */
  async function openSettings(): Promise<void> {
    const url = `${app.origin}/#/settings`;
    if (browser.page.url() === url) await browser.page.reload();
    else await browser.page.goto(url);
    await browser.page.getByTestId('settings-view').waitFor();
  }

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), openBrowser()]);
    await browser.page.goto(app.signInUrl);
    await browser.page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('shows the base URL, the data folder and a ready curl example', async () => {
    await openSettings();
    const { page } = browser;
    const api = page.getByTestId('api-access');
    await api.getByText(`${app.origin}/api`, { exact: true }).waitFor();
    await expect(api.locator('pre').textContent()).resolves.toContain(`curl -s -X POST ${app.origin}/oauth/token`);
    await expect(page.getByTestId('data-dir').textContent()).resolves.toBe(app.dataDir);
    await api.getByText('No API clients yet.').waitFor();
    await screenshot(page, '20-settings');
    expect(await unlabeledControls(page)).toEqual([]);
  });

  it('creates a client and shows its secret once, with copy buttons', async () => {
    await openSettings();
    const { page } = browser;
    await page.getByRole('button', { name: 'New API client' }).click();
    const dialog = page.getByTestId('create-client-dialog');
    // A missing name is explained next to the field.
    await dialog.getByRole('button', { name: 'Create client' }).click();
    await dialog.getByText('Give the client a name').waitFor();
    await dialog.getByLabel('Name').fill('Lab notebook');
    await dialog.getByRole('checkbox', { name: /write:profiles/ }).uncheck();
    await dialog.getByRole('radio', { name: /Only these traits/ }).check();
    await dialog.getByLabel('Free trait codes').fill('height, not_a_trait');
    await dialog.getByRole('button', { name: 'Create client' }).click();
    await dialog.getByText('Unknown trait code: not_a_trait.').waitFor();
    await dialog.getByLabel('Free trait codes').fill('height');
    await screenshot(page, '21-create-client');
    await dialog.getByRole('button', { name: 'Create client' }).click();

    const secretDialog = page.getByTestId('secret-dialog');
    await secretDialog.getByText('Copy the secret now. It is shown only once.').waitFor();
    const clientId = (await secretDialog.getByTestId('new-client-id').textContent())!;
    const clientSecret = (await secretDialog.getByTestId('new-client-secret').textContent())!;
    expect(clientId).toBeTruthy();
    expect(clientSecret.length).toBeGreaterThan(20);
    await expect(secretDialog.locator('pre').textContent()).resolves.toContain(clientSecret);
    await secretDialog.getByRole('button', { name: 'Copy client secret' }).waitFor();
    await screenshot(page, '22-client-secret');
    // Closing before the secret was copied asks first; going back keeps it on screen.
    await page.keyboard.press('Escape');
    const confirm = page.getByTestId('secret-confirm-dialog');
    await confirm.getByRole('heading', { name: 'Close without copying the secret?' }).waitFor();
    await confirm.getByRole('button', { name: 'Go back and copy it' }).click();
    await secretDialog.getByTestId('new-client-secret').waitFor();
    await secretDialog.getByRole('button', { name: 'I’ve saved the secret' }).click();
    await page.getByTestId('secret-confirm-dialog').getByRole('button', { name: 'Close without copying' }).click();

    const row = page.getByTestId('client-row').filter({ hasText: 'Lab notebook' });
    await expect(row.textContent()).resolves.toContain('read:profiles');
    await expect(row.textContent()).resolves.not.toContain('write:profiles');
    await expect(row.textContent()).resolves.toContain('1 trait');
    // The secret is not shown anywhere any more.
    await expect(page.getByText(clientSecret).count()).resolves.toBe(0);

    created = { clientId, clientSecret };
    const res = await tokenRequest(created);
    expect(res.status).toBe(200);
    const token = (await res.json()) as { access_token: string; scope: string };
    expect(token.scope).toBe('read:profiles');
  });

  it('revokes a client after confirmation, locking it out', async () => {
    const client = await labNotebook();
    expect((await tokenRequest(client)).status).toBe(200);
    await openSettings();
    const { page } = browser;
    await page.getByRole('button', { name: 'Revoke Lab notebook' }).click();
    const confirm = page.getByTestId('revoke-dialog');
    await confirm.getByRole('heading', { name: 'Revoke “Lab notebook”?' }).waitFor();
    await screenshot(page, '23-revoke-confirm');
    await confirm.getByRole('button', { name: 'Revoke access' }).click();
    await page.getByText('Lab notebook can no longer use the API.').waitFor();
    await page.getByTestId('api-access').getByText('No API clients yet.').waitFor();
    await page.getByText('1 revoked client').waitFor();

    expect((await tokenRequest(client)).status).toBe(401);
  });

  it('deletes all data only after the word DELETE is typed', async () => {
    const { page } = browser;
    await app.api('POST', '/profiles/', { first_name: 'Alan', last_name: 'Turing' });
    await app.api('POST', '/profiles/', { first_name: 'Barbara', last_name: 'McClintock' });
    await openSettings();
    await page.getByText('(2 profiles)', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Delete all data…' }).click();
    const dialog = page.getByTestId('delete-all-dialog');
    const confirm = dialog.getByRole('button', { name: 'Delete everything' });
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel(/Type DELETE to confirm/).fill('delete');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel(/Type DELETE to confirm/).fill('DELETE');
    await screenshot(page, '24-delete-all-confirm');
    await confirm.click();

    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    await page.getByText('All profiles, DNA files and results were deleted.').waitFor();
    expect((await app.api<unknown[]>('GET', '/profiles/')).body).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
