/** Profiles: create with every field, edit, validation errors in words, delete with confirmation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/shared/api.js';
import { openBrowser, screenshot, startApp, type Browser, type RunningApp } from './support/app.js';

describe('profiles', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), openBrowser({ colorScheme: 'dark' })]);
    await browser.page.goto(app.signInUrl);
    await browser.page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('creates a profile with sex and ethnicity as readable choices, without asking for an age no result uses', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'New profile' }).first().click();
    const dialog = page.getByTestId('profile-dialog');
    await dialog.getByRole('heading', { name: 'New profile' }).waitFor();
    // The first field has focus: typing goes there, Enter submits the form.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pf-first_name');
    expect(await dialog.getByLabel('Age').count()).toBe(0);
    await dialog.getByLabel('First name').fill('Grace');
    await dialog.getByLabel('Last name').fill('Hopper');
    await dialog.getByRole('radio', { name: 'Female' }).check();
    await dialog.getByLabel('Ethnicity').selectOption({ label: 'European (White)' });
    await screenshot(page, '10-profile-dialog');
    await dialog.getByRole('button', { name: 'Create profile' }).click();

    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    await page.getByText('Female · European (White)').waitFor();
    // No DNA file yet: the page says what to do next.
    await page.getByText('Add Grace Hopper’s DNA raw-data file').waitFor();
    await screenshot(page, '11-profile-empty');

    const { body } = await app.api<Profile[]>('GET', '/profiles/');
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ first_name: 'Grace', last_name: 'Hopper', gender: 2, age: null, ethnicity: 1 });
  });

  it('explains invalid input next to the field and keeps the dialog open', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByTestId('profile-dialog');
    // Past the field's length limit (as a pasted or scripted value could be).
    await page.evaluate(() => document.getElementById('pf-last_name')!.removeAttribute('maxlength'));
    await dialog.getByLabel('Last name').fill('H'.repeat(101));
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const field = dialog.getByLabel('Last name');
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    // The message sits outside the label, tied to the field, and the field has focus so it is read once.
    const message = (await dialog.locator('#pf-last_name-error').textContent())!;
    expect(message).toMatch(/Last name must be at most 100 characters/);
    await expect(field.getAttribute('aria-describedby')).resolves.toBe('pf-last_name-error');
    expect(await page.evaluate(() => document.getElementById('pf-last_name-error')!.closest('label'))).toBeNull();
    await page.waitForFunction(() => document.activeElement?.id === 'pf-last_name');
    await screenshot(page, '12-profile-validation');
  });

  it('edits every field', async () => {
    const { page } = browser;
    const dialog = page.getByTestId('profile-dialog');
    await dialog.getByLabel('First name').fill('Grace Brewster');
    await dialog.getByLabel('Last name').fill('Murray');
    await dialog.getByRole('radio', { name: 'Not specified' }).check();
    await dialog.getByLabel('Ethnicity').selectOption({ label: 'East Asian' });
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Grace Brewster Murray' }).waitFor();
    await page.getByText('East Asian', { exact: true }).waitFor();

    const { body } = await app.api<Profile[]>('GET', '/profiles/');
    expect(body[0]).toMatchObject({
      first_name: 'Grace Brewster',
      last_name: 'Murray',
      gender: 0,
      age: null,
      ethnicity: 4,
    });
  });

  it('deletes a profile only after confirmation', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Delete Grace Brewster Murray' }).click();
    const confirm = page.getByTestId('delete-profile-dialog');
    await confirm.getByRole('heading', { name: 'Delete Grace Brewster Murray?' }).waitFor();
    await screenshot(page, '13-delete-confirm');

    // Cancel keeps it.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await app.api<Profile[]>('GET', '/profiles/')).body).toHaveLength(1);

    await page.getByRole('button', { name: 'Delete Grace Brewster Murray' }).click();
    await page.getByTestId('delete-profile-dialog').getByRole('button', { name: 'Delete profile' }).click();
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    await page.getByText('Grace Brewster Murray was deleted.').waitFor();
    expect((await app.api<Profile[]>('GET', '/profiles/')).body).toHaveLength(0);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByText('No profiles yet.', { exact: false }).isVisible(),
    ).resolves.toBe(true);
    expect(browser.errors).toEqual([]);
  });
});
