/**
 * The medication section and card in the UI: hidden until the person chose to see disease
 * results, then each gene's result with its medicines, and a one-page card. Its picture is
 * copied to docs/screenshots/medication-card.png.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/shared/api.js';
import { FINDING_CALLS, personFile } from '../support/genotypes.js';
import {
  openBrowser,
  ROOT,
  screenshot,
  SCREENSHOTS,
  startApp,
  uploadThroughApi,
  type Browser,
  type RunningApp,
} from './support/app.js';

/** CYP2C19 *1/*2 at the positions most chips carry, VKORC1 -1639 AG, SLCO1B1 rs4149056 heterozygous. */
const DRUG_GENE_CALLS: Array<[string, string]> = [
  ['rs12248560', 'CC'],
  ['rs4244285', 'AG'],
  ['rs4986893', 'GG'],
  ['rs3758581', 'GG'],
  ['rs9923231', 'CT'],
  ['rs4149056', 'TC'],
];

let app: RunningApp;
let browser: Browser;
let profile: Profile;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), openBrowser({ bypassCSP: true })]);
  let small = 0;
  const traits = (t: { markers: { rsid: number[] } }) => t.markers.rsid.length <= 2 && small++ < 30;
  const file = personFile({ seed: 9, traits, extra: [...FINDING_CALLS, ...DRUG_GENE_CALLS] });
  profile = (await app.api<Profile>('POST', '/profiles/', { first_name: 'Ines', last_name: 'Moreau', gender: 2 })).body;
  await uploadThroughApi(app, profile.id, file);
  await browser.page.goto(app.signInUrl);
  await browser.page
    .getByRole('link', { name: /Ines Moreau/ })
    .first()
    .click();
  await browser.page.getByTestId('pharmacogenes').waitFor({ timeout: 120_000 });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the medication section', () => {
  it('stays hidden until the person chose to see disease results', async () => {
    const { page } = browser;
    await expect(page.getByTestId('pharmacogenes').textContent()).resolves.toMatch(/hidden with the disease results/);
    expect(await page.getByTestId('pgx-CYP2C19').count()).toBe(0);
  });

  it('then shows each gene honestly, with medicines and a printable one-page card', async () => {
    const { page } = browser;
    await page.getByTestId('sensitive-question').getByRole('button', { name: 'Show them' }).click();
    const c19 = page.getByTestId('pgx-CYP2C19');
    await c19.waitFor();
    // Four of CYP2C19's positions read: *1/*2 fits, but so do alleles this file cannot see.
    await expect(c19.textContent()).resolves.toMatch(/Several possible/);
    const vkorc1 = page.getByTestId('pgx-VKORC1');
    await expect(vkorc1.textContent()).resolves.toMatch(/-1639 AG/);
    await expect(vkorc1.getByRole('link', { name: 'PMID 28198005' }).getAttribute('href')).resolves.toBe(
      'https://pubmed.ncbi.nlm.nih.gov/28198005/',
    );
    await expect(page.getByTestId('pgx-CYP2D6').textContent()).resolves.toMatch(/Not determinable/);
    await expect(page.getByTestId('pharmacogenes').textContent()).resolves.toMatch(
      /Do not start, stop or change a medicine without your doctor or pharmacist/,
    );
    await page.getByRole('button', { name: 'Show the medication card' }).click();
    const card = page.getByTestId('medication-card');
    await card.waitFor();
    const text = (await card.textContent())!;
    expect(text).toMatch(/CYP2C19/);
    expect(text).toMatch(/2025-11-05/);
    expect(text).toMatch(/positions/);
    await expect(page.getByTestId('pgx-SLCO1B1').textContent()).resolves.toMatch(/Several possible/);
    // The card alone, as it prints; then the section's first genes with their medicines.
    const cardShot = path.join(SCREENSHOTS, '40-medication-card.png');
    await card.screenshot({ path: cardShot });
    copyFileSync(cardShot, path.join(ROOT, 'docs', 'screenshots', 'medication-card.png'));
    await page.getByRole('button', { name: 'Hide the medication card' }).click();
    await page.getByTestId('pharmacogenes').scrollIntoViewIfNeeded();
    await screenshot(page, '41-medication-section');
    copyFileSync(
      path.join(SCREENSHOTS, '41-medication-section.png'),
      path.join(ROOT, 'docs', 'screenshots', 'medication-section.png'),
    );
    expect(browser.errors).toEqual([]);
  });
});
