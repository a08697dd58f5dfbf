/**
 * Search like people talk: everyday words find the phenotypes the catalog names otherwise,
 * rsIDs and the markers of everyday terms show the person's own genotype from their file,
 * and a phenotype hidden by a filter is never reported as "no match".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenotypeSnp, Profile } from '../../src/shared/api.js';
import { personFile } from '../support/genotypes.js';
import {
  axeViolations,
  openBrowser,
  startApp,
  uploadThroughApi,
  type Browser,
  type RunningApp,
} from './support/app.js';

describe('search', () => {
  let app: RunningApp;
  let browser: Browser;
  let profile: Profile;
  const search = (q: string) => browser.page.getByRole('searchbox', { name: 'Search results' }).fill(q);

  beforeAll(async () => {
    // bypassCSP only so the test can inject axe-core; the app's own code runs under its CSP.
    [app, browser] = await Promise.all([startApp(), openBrowser({ bypassCSP: true })]);
    profile = (await app.api<Profile>('POST', '/profiles/', { first_name: 'Sam', last_name: 'Search' })).body;
    await uploadThroughApi(app, profile.id, personFile({ seed: 31, fillerTraits: 60 }));
    await browser.page.goto(app.signInUrl);
    await browser.page
      .getByRole('link', { name: /Sam Search/ })
      .first()
      .click();
    await browser.page.locator('.trait-row[data-status=computed]').first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('finds coffee and caffeine phenotypes from everyday words', async () => {
    const { page } = browser;
    await search('espresso');
    const list = page.getByRole('list', { name: 'Results' });
    await list
      .getByText(/Caffeine consumption|Coffee consumption/)
      .first()
      .waitFor();
  });

  it('answers "eye colour" with the person’s own genotype at the eye-colour marker, from their file', async () => {
    const { page } = browser;
    const [own] = (await app.api<GenotypeSnp[]>('GET', `/profiles/${profile.id}/genotype/snps/?rsid=rs12913832`)).body;
    await search('eye colour');
    const answer = page.getByTestId('search-answer');
    await answer.getByText(/no eye-colour score/).waitFor();
    const row = answer.getByTestId('search-genotype-rs12913832');
    await row.getByText(own ? own.genotype : 'not in your file').waitFor();
    await expect(row.textContent()).resolves.toMatch(/HERC2.*PMID 20585627/);
    expect(await answer.locator('a[href^="http"]').count()).toBe(0);
    expect(await axeViolations(page, '[data-testid=trait-browser]')).toEqual([]);
  });

  it('looks up a typed rsID in the person’s file', async () => {
    const { page } = browser;
    const [own] = (await app.api<GenotypeSnp[]>('GET', `/profiles/${profile.id}/genotype/snps/?rsid=rs4988235`)).body;
    await search('rs4988235');
    await page
      .getByTestId('search-genotype-rs4988235')
      .getByText(own ? own.genotype : 'not in your file')
      .waitFor();
  });

  it('says a phenotype is hidden by the filters instead of "no match"', async () => {
    const { page } = browser;
    // Height has a result and is not suggestive: the suggestive-only filter hides it.
    await page.getByRole('checkbox', { name: 'Suggestive' }).check();
    await search('height');
    const empty = page.getByTestId('search-empty');
    await empty.waitFor();
    await expect(empty.textContent()).resolves.toMatch(/match(es)? “height”, but the filters hide/);
    await expect(empty.textContent()).resolves.not.toMatch(/No phenotype matches/);
    await expect(empty.textContent()).resolves.toMatch(/“height”, but the filters hide/);
    await page.getByRole('checkbox', { name: 'Suggestive' }).uncheck();
    await search('');
    expect(browser.errors).toEqual([]);
  });

  it('puts the page’s h1 first in the heading outline, and draws stat sub-lines small and regular', async () => {
    const { page } = browser;
    expect(await page.evaluate(() => document.querySelector('h1, h2, h3')?.tagName)).toBe('H1');
    await page.goto(`${app.origin}/#/profiles/${profile.id}/traits/height`);
    const sub = page.locator('.stat dd.stat-sub').first();
    await sub.waitFor();
    const style = await sub.evaluate((el) => [getComputedStyle(el).fontSize, getComputedStyle(el).fontWeight]);
    expect(style).toEqual(['12px', '400']);
    expect(await page.evaluate(() => document.querySelector('h1, h2, h3')?.tagName)).toBe('H1');
    // The evidence words quote the study's own figures.
    const words = page.getByTestId('trait-evidence-words');
    await words.waitFor();
    await expect(words.textContent()).resolves.not.toMatch(/small stud/i);
  });
});
