/**
 * A file that is not DNA raw data: the user reads why in words, next to the profile it was
 * meant for, and a profile's previous results stay untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile, ProfileTrait } from '../../src/shared/api.js';
import {
  dropFiles,
  openBrowser,
  screenshot,
  startApp,
  uploadThroughApi,
  type Browser,
  type RunningApp,
} from './support/app.js';
import { personFile } from '../support/genotypes.js';

const NOT_DNA = [
  'Dear customer,',
  'thank you for your order. Your health report is attached as a PDF.',
  'Order number: 12345, total: 99.00',
  '',
].join('\n');

describe('a file that cannot be read', () => {
  let app: RunningApp;
  let browser: Browser;
  let profile: Profile;
  let before: ProfileTrait[];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), openBrowser()]);
    profile = (
      await app.api<Profile>('POST', '/profiles/', {
        first_name: 'Rosalind',
        last_name: 'Franklin',
        gender: 2,
        ethnicity: 1,
      })
    ).body;
    await uploadThroughApi(app, profile.id, personFile({ seed: 11 }));
    before = (await app.api<ProfileTrait[]>('GET', `/profiles/${profile.id}/traits/?score`)).body;
    expect(before.length).toBeGreaterThan(0);
    await browser.page.goto(app.signInUrl);
    await browser.page
      .getByRole('link', { name: /Rosalind Franklin/ })
      .first()
      .click();
    await browser.page.locator('.trait-row[data-status=computed]').first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('asks before replacing a genotype, then explains the failure and keeps the old results', async () => {
    const { page } = browser;
    // The file chooser path, for people who don't drag.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Replace DNA file' }).click(),
    ]);
    await chooser.setFiles({ name: 'order-confirmation.txt', mimeType: 'text/plain', buffer: Buffer.from(NOT_DNA) });
    const confirm = page.getByTestId('replace-dialog');
    await confirm.getByRole('heading', { name: 'Replace Rosalind Franklin’s DNA file?' }).waitFor();
    await screenshot(page, '30-replace-confirm');
    await confirm.getByRole('button', { name: 'Replace DNA file' }).click();

    const banner = page.getByTestId('failure-banner');
    await banner.waitFor({ timeout: 30_000 });
    await expect(banner.textContent()).resolves.toMatch(/The new DNA file could not be read/);
    await expect(banner.textContent()).resolves.toMatch(/Nothing was lost/);
    // The service's own reason, in words (not a status code or JSON).
    const reason = (await banner.locator('p').first().textContent())!;
    expect(reason.length).toBeGreaterThan(20);
    expect(reason).not.toMatch(/[{}]|HTTP \d{3}/);

    // The previous genotype and results are still there, on screen and in the API.
    await expect(page.getByTestId('genotype-card').textContent()).resolves.toMatch(/23andMe/);
    // Waited for, not counted at once: the page may be drawing the list again after the failure event.
    await page.locator('.trait-row[data-status=computed]').first().waitFor({ timeout: 30_000 });
    const after = (await app.api<ProfileTrait[]>('GET', `/profiles/${profile.id}/traits/?score`)).body;
    expect(after.map((t) => [t.trait.code, t.percentile])).toEqual(before.map((t) => [t.trait.code, t.percentile]));
    await screenshot(page, '31-replace-failed');

    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('failure-banner').count()).resolves.toBe(0);
  });

  it('explains a dropped file that is not DNA data and leaves no empty profile behind', async () => {
    const { page } = browser;
    // Over an open profile the window offers both: replace its file, or new profiles.
    await dropFiles(page, [{ name: 'not-my-genome.txt', content: NOT_DNA }], 'drop-new', async () => {
      await page.getByTestId('drop-replace').getByText('Replace Rosalind Franklin’s DNA file').waitFor();
      await screenshot(page, '33-drop-overlay');
    });
    const job = page.getByTestId('job-tray').locator('li').filter({ hasText: 'not-my-genome.txt' });
    await job.getByText('Could not be read: no profile was created').waitFor({ timeout: 60_000 });
    // The service's reason, in words, and a way on.
    expect((await job.locator('.job-error').textContent())!.length).toBeGreaterThan(20);
    await job.getByRole('button', { name: 'Choose another file' }).waitFor();
    const names = (await app.api<Profile[]>('GET', '/profiles/')).body.map((p) => p.first_name);
    expect(names).toEqual(['Rosalind']);
    await screenshot(page, '32-new-profile-failed');
    expect(browser.errors).toEqual([]);
  });
});
