/**
 * The main journey: a DNA file dropped on the window becomes a profile, uploads with
 * progress, is processed, and shows results; an assessment opens with its plot and markers;
 * the report exports.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropFiles, openBrowser, ROOT, screenshot, startApp, unlabeledControls, type Browser, type RunningApp } from './support/app.js';
import { synthetic23andMe } from './support/genotype.js';

describe('drop a DNA file, read the results', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), openBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });
  const profileId = async () => (await app.api<Array<{ id: string }>>('GET', '/profiles/')).body[0].id;

  it('signs in from the one-time link and removes it from the address bar', async () => {
    const { page } = browser;
    await page.goto(app.signInUrl);
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    expect(page.url()).not.toContain('signin=');
    const token = await page.evaluate(() => sessionStorage.getItem('traitscope.token'));
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await fetch(`${app.origin}/api/profiles/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await screenshot(page, '01-welcome');

    // The link works once: a second tab opening it is told what to do instead.
    const second = await page.context().newPage();
    await second.goto(app.signInUrl);
    await second.getByText(/already used or has expired/).waitFor();
    await second.close();
  });

  it('turns a dropped file into a profile with results', async () => {
    const { page } = browser;
    const content = synthetic23andMe(ROOT);
    // A slow link (about 250 KB/s up) so the upload's progress can be watched.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 250 * 1024 });
    await dropFiles(page, [{ name: 'genome_Ada_Lovelace_v5_Full_20240314.txt', content }], 'drop-new');

    // The profile is named after the file and opened; the upload shows real progress.
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await page.getByTestId('job-tray').waitFor();
    const bar = page.getByTestId('job-card').getByRole('progressbar', { name: /Importing/ });
    await bar.waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid=job-card] [role=progressbar][aria-valuenow]');
      const v = Number(el?.getAttribute('aria-valuenow'));
      return v > 5 && v < 95;
    });
    await screenshot(page, '02a-uploading');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    // Processing ends with the genotype summary and automatically computed free traits.
    const genotype = page.getByTestId('genotype-card');
    await genotype.waitFor({ timeout: 30_000 });
    await expect(genotype.textContent()).resolves.toMatch(/23andMe/);
    await expect(genotype.textContent()).resolves.toMatch(/GRCh37/);
    await expect(genotype.textContent()).resolves.toMatch(/Female/);
    await expect(genotype.textContent()).resolves.toMatch(/European/);
    await page.locator('.trait-row[data-status=computed]').first().waitFor({ timeout: 20_000 });
    const computed = await page.locator('.trait-row[data-status=computed]').count();
    expect(computed).toBeGreaterThan(0);
    await page.getByTestId('job-tray').getByText(/results? ready/).waitFor();

    const profiles = await app.api<Array<{ first_name: string; last_name: string }>>('GET', '/profiles/');
    expect(profiles.body.map((p) => `${p.first_name} ${p.last_name}`)).toEqual(['Ada Lovelace']);
    await screenshot(page, '02-profile-results');
    expect(await unlabeledControls(page)).toEqual([]);
  });

  it('scores every trait in the background: nothing is left to compute by hand', async () => {
    const { page } = browser;
    // The service pushes its progress; once its background scoring ends, every computable trait is a result.
    await page.getByRole('button', { name: 'All available traits computed' }).waitFor({ timeout: 45_000 });
    expect(await page.locator('.trait-row[data-status=available]').count()).toBe(0);
    const { body } = await app.api<Array<{ status: string }>>('GET', `/profiles/${await profileId()}/traits/`);
    expect(body.filter((t) => t.status === 'available')).toHaveLength(0);
    const computed = body.filter((t) => t.status === 'computed').length;
    expect(computed).toBeGreaterThan(100);
    await expect(page.getByTestId('trait-browser').textContent()).resolves.toContain(`${computed.toLocaleString('en-US')} results`);
  });

  it('finds a result by searching', async () => {
    const { page } = browser;
    const row = page.locator('.trait-row[data-status=computed]').nth(3);
    const code = (await row.getAttribute('data-testid'))!.replace(/^trait-/, '');
    const name = (await row.locator('.trait-name').textContent())!;
    await page.getByRole('searchbox', { name: 'Search traits' }).fill(name);
    const found = page.getByTestId(`trait-${code}`);
    await found.waitFor();
    await expect(found.textContent()).resolves.toMatch(/percentile/);
    await page.getByRole('button', { name: 'Clear search' }).click();
  });

  it('opens an assessment with its distribution plot, markers and citation', async () => {
    const { page } = browser;
    const row = page.locator('.trait-row[data-status=computed]').first();
    const name = (await row.locator('.trait-name').textContent())!;
    await row.locator('.trait-name').click();
    const view = page.getByTestId('assessment-view');
    await view.getByRole('heading', { level: 1, name }).waitFor();

    const plot = page.getByTestId('distribution-plot');
    await plot.waitFor();
    await expect(plot.locator('path.plot-line').count()).resolves.toBe(1);
    await expect(plot.locator('line.plot-marker').count()).resolves.toBe(1);
    await expect(plot.getByRole('img').getAttribute('aria-labelledby')).resolves.toBeTruthy();
    await expect(page.getByTestId('percentile').textContent()).resolves.toMatch(/^\d+(st|nd|rd|th)$/);

    const markers = page.getByTestId('markers');
    const firstMarker = markers.locator('tbody tr').first();
    await expect(firstMarker.locator('th a').textContent()).resolves.toMatch(/^rs\d+$/);
    await expect(firstMarker.locator('td').first().textContent()).resolves.toMatch(/^[ACGT-]{1,2}$|not tested/);

    const pubmed = page.getByTestId('evidence').getByRole('link', { name: /PubMed/ });
    await expect(pubmed.getAttribute('href')).resolves.toMatch(/^https:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/\d+\/$/);
    await screenshot(page, '03-assessment');
    expect(await unlabeledControls(page)).toEqual([]);
    await page.getByTestId('markers').scrollIntoViewIfNeeded();
    await screenshot(page, '04-assessment-markers');
  });

  it('exports the report as CSV and JSON and shows a printable report', async () => {
    const { page } = browser;
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link').click();
    await page.getByRole('button', { name: 'Report' }).click();
    const report = page.getByTestId('report-view');
    await report.getByRole('heading', { name: 'Genetic trait report' }).waitFor();

    const [csv] = await Promise.all([page.waitForEvent('download'), report.getByRole('button', { name: 'CSV' }).click()]);
    const csvText = readFileSync((await csv.path())!, 'utf8');
    expect(csv.suggestedFilename()).toMatch(/Ada Lovelace\.csv$/);
    expect(csvText.split('\r\n')[0]).toContain('trait_code,trait_name,category');
    expect(csvText.split('\r\n').filter(Boolean).length).toBeGreaterThan(1);

    const [json] = await Promise.all([page.waitForEvent('download'), report.getByRole('button', { name: 'JSON' }).click()]);
    const doc = JSON.parse(readFileSync((await json.path())!, 'utf8')) as { profile: { first_name: string }; results: unknown[] };
    expect(doc.profile.first_name).toBe('Ada');
    expect(doc.results.length).toBeGreaterThan(0);

    const [html] = await Promise.all([page.waitForEvent('download'), report.getByRole('button', { name: 'HTML' }).click()]);
    const htmlText = readFileSync((await html.path())!, 'utf8');
    expect(htmlText).toMatch(/^<!doctype html>/);
    expect(htmlText).toContain('Genetic trait report');
    expect(htmlText).toContain('@media print');
    await screenshot(page, '05-report');
    expect(browser.errors).toEqual([]);
  });
});
