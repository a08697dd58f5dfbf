/**
 * What a result means, in the built UI and real Chromium: the detail page of a disease with a
 * cited frequency shows two icon arrays of 100 people (people with a score like yours, and
 * everyone), the source and the reliability note; the report's notable results carry the same.
 * The detail page's picture is docs/screenshots/meaning-detail.png.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/shared/api.js';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { markersOf, twentyThreeAndMe } from '../support/genotypes.js';
import { rng } from '../support/prng.js';
import {
  openBrowser,
  ROOT,
  SCREENSHOTS,
  screenshot,
  startApp,
  uploadThroughApi,
  type Browser,
  type RunningApp,
} from './support/app.js';

const catalog = readCatalogFile(path.join(ROOT, 'resources'));

/** Every marker of the traits, `effect(i)` copies of the effect allele; an rsID shared by two traits keeps its first call. */
function fileOf(parts: Array<[string, (i: number) => number]>): string {
  const byRsid = new Map<string, string>();
  for (const [code, effect] of parts) {
    const m = catalog.traits.find((t) => t.code === code)!.markers;
    m.rsid.forEach((rs, i) => {
      const d = effect(i);
      if (!byRsid.has(`rs${rs}`)) byRsid.set(`rs${rs}`, m.effect[i].repeat(d) + m.other[i].repeat(2 - d));
    });
  }
  return twentyThreeAndMe(markersOf([...byRsid]));
}

/** Effect alleles drawn from the trait's European frequencies. */
function drawn(code: string, random: () => number): (i: number) => number {
  const freq = catalog.traits.find((t) => t.code === code)!.markers.freq.EUR;
  return (i) => (random() < freq[i] ? 1 : 0) + (random() < freq[i] ? 1 : 0);
}

let app: RunningApp;
let browser: Browser;
let profile: Profile;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), openBrowser()]);
  profile = (
    await app.api<Profile>('POST', '/profiles/', { first_name: 'Grace', last_name: 'Hopper', gender: 2, ethnicity: 1 })
  ).body;
  await uploadThroughApi(
    app,
    profile.id,
    fileOf([
      // Type 2 diabetes drawn from European frequencies (seeded): a score like most people's.
      ['type_2_diabetes', drawn('type_2_diabetes', rng(4))],
      ['gout', () => 1],
      ['kidney_stones', () => 2],
      ['left_handedness', () => 2],
    ]),
  );
  await browser.page.goto(app.signInUrl);
  await browser.page
    .getByRole('link', { name: /Grace Hopper/ })
    .first()
    .click();
  await browser.page.getByTestId('trait-browser').waitFor({ timeout: 60_000 });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('what a result means, on screen', () => {
  it('shows a disease with a cited frequency as two icon arrays of 100 people, with the source and the reliability', async () => {
    const { page } = browser;
    await page.evaluate((id) => (window.location.hash = `#/profiles/${id}/traits/type_2_diabetes`), profile.id);
    const card = page.getByTestId('result-meaning');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getAttribute('data-kind')).toBe('risk');
    const arrays = card.getByTestId('icon-array');
    expect(await arrays.count()).toBe(2);
    const yours = Number(await arrays.nth(0).getAttribute('data-filled'));
    const everyone = Number(await arrays.nth(1).getAttribute('data-filled'));
    expect(everyone).toBe(39); // 38.5 % for women (Narayan et al. 2003)
    expect(yours).toBeGreaterThan(0);
    await expect(card.getByTestId('meaning-summary').textContent()).resolves.toMatch(
      /^About \d+ in 100 people with a score like yours develop type 2 diabetes/,
    );
    await expect(card.getByTestId('meaning-source').textContent()).resolves.toMatch(/PMID 14532317/);
    await expect(card.getByTestId('meaning-reliability').textContent()).resolves.toMatch(/European ancestry/);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, '30-meaning-detail');
    mkdirSync(path.join(ROOT, 'docs', 'screenshots'), { recursive: true });
    copyFileSync(
      path.join(SCREENSHOTS, '30-meaning-detail.png'),
      path.join(ROOT, 'docs', 'screenshots', 'meaning-detail.png'),
    );
    expect(browser.errors).toEqual([]);
  }, 120_000);

  it('puts the same sentence and small icon arrays on the report’s first page', async () => {
    const { page } = browser;
    await page.evaluate((id) => (window.location.hash = `#/profiles/${id}/report`), profile.id);
    const doc = page.getByTestId('report-document');
    await doc.waitFor({ timeout: 60_000 });
    await page.getByRole('checkbox', { name: /Disease, cancer and psychiatric results/ }).check();
    // Kidney stones with every effect allele: among the notable results, in absolute terms.
    const stones = doc.getByTestId('report-meaning').filter({ hasText: 'kidney stones' });
    await expect(stones.textContent()).resolves.toMatch(/in 100 people with a score like yours have kidney stones/);
    expect(await stones.getByTestId('icon-array').count()).toBe(2);
  }, 120_000);
});
