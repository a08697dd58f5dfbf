/**
 * A person's journey in real Chromium against the real headless service: a dropped file
 * becomes a profile whose page answers "what is notable about me, how much should I care"
 * — the summary first, one row per phenotype, findings behind an explicit opt-in, a result
 * in detail, a report built to choose — and the same by keyboard only, in both themes,
 * at 800×600 and at 200 % zoom. One server and one browser serve every test in the file;
 * each test signs in and opens the profile it reads through the fixtures below, so any test
 * runs alone (`npx vitest run test/e2e/journey.test.ts -t NAME`) as well as after the others
 * (then it reads the profile the drop made).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/shared/api.js';
import {
  axeBothThemes,
  dropFiles,
  openFresh,
  waitForAllResults,
  waitForListDrawn,
  openBrowser,
  screenshot,
  SCREENSHOTS,
  scoredProfile,
  startApp,
  unlabeledControls,
  type Browser,
  type RunningApp,
} from './support/app.js';
import { FINDING_CALLS, personFile } from '../support/genotypes.js';
import { runCli } from '../support/server.js';

const FILE = personFile({ extra: FINDING_CALLS });

let app: RunningApp;
let browser: Browser;
/** Whether this browser holds a session (the sign-in test or `signIn` made one). */
let signedIn = false;

beforeAll(async () => {
  // bypassCSP only so the tests can inject axe-core; the app's own code runs under its CSP.
  [app, browser] = await Promise.all([startApp(), openBrowser({ bypassCSP: true })]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A session for this browser, from a one-time link of its own when no test signed in yet. */
async function signIn(): Promise<void> {
  if (signedIn) return;
  const link = runCli(['sign-in-link', '--data-dir', app.dataDir]);
  if (link.status !== 0) throw new Error(`sign-in-link failed: ${link.stderr}`);
  await browser.page.goto(link.stdout.trim());
  await browser.page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
  signedIn = true;
}

/** Ada's profile, every trait scored: the one the drop test made, else uploaded through the API. */
const adaProfile = () => scoredProfile(app, { first_name: 'Ada', last_name: 'Lovelace' }, FILE);

/**
 * Signed in, on Ada's profile page as it settles: the summary, the result rows and the
 * single-variant findings shown, and no section above the list still reading.
 */
async function openAda(): Promise<Profile> {
  await signIn();
  const ada = await adaProfile();
  const { page } = browser;
  await openFresh(page, `${app.origin}/#/profiles/${ada.id}`);
  await page.getByTestId('summary').waitFor({ timeout: 60_000 });
  await page.locator('.trait-row[data-status=computed]').first().waitFor({ timeout: 60_000 });
  await page.getByTestId('finding-lactase_persistence').waitFor({ timeout: 60_000 });
  await page.getByText(/^Reading your (findings|drug–gene results)…$/).waitFor({ state: 'detached', timeout: 60_000 });
  await waitForListDrawn(page);
  return ada;
}

/** Presses Tab until the focused element matches, as a keyboard user would; fails after `max` presses. */
async function tabTo(page: Browser['page'], matches: (el: Element) => boolean, max = 250): Promise<void> {
  const test = matches.toString();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((src) => !!document.activeElement && (0, eval)(`(${src})`)(document.activeElement), test))
      return;
  }
  throw new Error(`Tab never reached the element (${test})`);
}

describe('drop a DNA file, read the answer', () => {
  it('signs in from the one-time link and removes it from the address bar', async () => {
    const { page } = browser;
    await page.goto(app.signInUrl);
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    expect(page.url()).not.toContain('signin=');
    expect(await page.title()).toBe('Profiles – Traitscope');
    signedIn = true;
    await screenshot(page, '01-welcome');
  });

  it('turns a dropped file into a profile, importing with visible progress', async () => {
    await signIn();
    const { page } = browser;
    await page.goto(`${app.origin}/#/`);
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 250 * 1024,
    });
    await dropFiles(page, [{ name: 'genome_Ada_Lovelace_v5_Full_20240314.txt', content: FILE }], 'drop-new');
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await page.waitForFunction(() => {
      const v = Number(
        document
          .querySelector('[data-testid=job-card] [role=progressbar][aria-valuenow]')
          ?.getAttribute('aria-valuenow'),
      );
      return v > 5 && v < 95;
    });
    await screenshot(page, '02a-importing');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.getByTestId('genotype-card').waitFor({ timeout: 60_000 });
    // Once every file is done the tray folds to a pill (and leaves a little later).
    await page.getByTestId('job-tray').getByRole('button', { name: '1 file imported' }).waitFor({ timeout: 30_000 });
    const ada = (await app.api<Profile[]>('GET', '/profiles/')).body[0];
    // Every trait is scored in the background and shows up without pressing anything.
    await waitForAllResults(page, app, ada.id);
    await page.getByTestId('summary').waitFor();
    expect(await page.title()).toBe('Ada Lovelace – Traitscope');
    // No "Compute" anywhere: every result is there.
    expect(await page.getByRole('button', { name: /^Compute/ }).count()).toBe(0);
    // The DNA card folds to one line once results exist, and warns about a small file.
    await expect(page.getByTestId('genotype-card').textContent()).resolves.toMatch(
      /23andMe · GRCh37 \(hg19\) · [\d,]+ markers · call rate [\d.]+% · Female \(from your DNA\)/,
    );
    await expect(page.getByTestId('file-warnings').textContent()).resolves.toMatch(/Only [\d,]+ markers were read/);
  }, 300_000);

  it('puts the summary first: at most 10 notable results, each with how much it tells, and what the file cannot tell', async () => {
    await openAda();
    const { page } = browser;
    const summary = page.getByTestId('summary');
    const notable = summary.getByTestId('notable');
    const n = await notable.count();
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(10);
    for (let i = 0; i < n; i++)
      await expect(notable.nth(i).textContent()).resolves.toMatch(
        /How much this tells you: (Very little|A little|Some|More than most results)/,
      );
    // The summary comes before the list; the list follows the question about disease results.
    const order = await page.evaluate(() =>
      ['summary', 'trait-browser'].map(
        (id) => document.querySelector(`[data-testid=${id}]`)!.getBoundingClientRect().top,
      ),
    );
    expect(order[0]).toBeLessThan(order[1]);
    const cantTell = await page.getByTestId('cant-tell').textContent();
    expect(cantTell).toMatch(/What your file can’t tell you/);
    expect(cantTell).toMatch(/Rare variants with large effects/);
    expect(cantTell).toMatch(/do not apply to a female profile|do not apply to this profile’s sex/);
    await screenshot(page, '02-profile-summary');
  }, 60_000);

  it('asks before showing disease results, then shows findings with citations and looks markers up', async () => {
    await openAda();
    const { page } = browser;
    const findings = page.getByTestId('findings');
    // Before the answer: no APOE, disease results hidden.
    expect(await page.getByTestId('finding-apoe').count()).toBe(0);
    await findings.getByTestId('finding-lactase_persistence').waitFor();
    await page.getByTestId('sensitive-question').getByRole('button', { name: 'Show them' }).click();
    const apoe = page.getByTestId('finding-apoe');
    await apoe.waitFor();
    await expect(apoe.textContent()).resolves.toMatch(/ε3\/ε4/);
    await expect(apoe.getByRole('link', { name: /PMID 8346443/ }).getAttribute('href')).resolves.toBe(
      'https://pubmed.ncbi.nlm.nih.gov/8346443/',
    );
    await expect(apoe.textContent()).resolves.toMatch(/cannot rule out other variants in APOE/);
    expect(await page.getByTestId('sensitive-question').count()).toBe(0);
    // The choice is remembered for this profile.
    await page.reload();
    await page.getByTestId('finding-apoe').waitFor();

    const search = page.getByTestId('marker-search');
    const lookUp = async (query: string, first: string) => {
      await search.getByLabel('rsID or gene').fill(query);
      await search.getByRole('button', { name: 'Look up' }).click();
      await search.locator('tbody th', { hasText: first }).waitFor();
      return search.locator('tbody').textContent();
    };
    expect(await lookUp('rs4988235, rs999999999', 'rs4988235')).toMatch(/rs4988235.*AG.*rs999999999.*not in your file/);
    expect(await lookUp('apoe', 'rs429358')).toMatch(/rs429358.*CT.*rs7412.*CC/);
    await search.getByLabel('rsID or gene').fill('BRCA1');
    await search.getByRole('button', { name: 'Look up' }).click();
    await expect(search.getByRole('alert').textContent()).resolves.toMatch(
      /neither an rsID .* nor a gene with findings/,
    );
    await page.getByTestId('findings').scrollIntoViewIfNeeded();
    await screenshot(page, '03-findings');
  });

  it(
    'shows one row per phenotype with how other studies agree, evidence and the reference; greys what does not apply',
    { timeout: 300_000 },
    async () => {
      await openAda();
      const { page } = browser;
      const rows = page.locator('.trait-row[data-status=computed]');
      const count = await rows.count();
      expect(count).toBeGreaterThan(10);
      // Every row names its reference, and no name carries an author or a PMID.
      expect(await page.locator('.trait-row[data-status=computed] [data-testid=row-reference]').count()).toBe(count);
      await expect(rows.first().getByTestId('row-reference').textContent()).resolves.toMatch(
        /^Compared with: European \(EUR\), (estimated from your DNA|assumed|chosen by you)$/,
      );
      const names = await page.locator('.trait-row .trait-name').allTextContents();
      for (const name of names) expect(name).not.toMatch(/\bet al\b|PMID|\b\d{7,8}\b/);
      const groups = await page
        .locator('.trait-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-group')));
      expect(new Set(groups).size).toBe(groups.length);
      // Links say level and percentile.
      await expect(rows.first().locator('.trait-name').getAttribute('aria-label')).resolves.toMatch(
        /: (much )?(lower|higher) than average|: average, /,
      );
      // Another study's agreement opens under its phenotype.
      const multi = page.locator('.trait-row[data-status=computed] .row-studies button').first();
      if (await multi.count()) {
        await multi.click();
        await expect(multi.getAttribute('aria-expanded')).resolves.toBe('true');
      }
      // Saying the profile is female recalculates in place and says what changed; then the
      // phenotypes of the other sex do not apply: greyed, with the reason.
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByTestId('profile-dialog').getByRole('radio', { name: 'Female' }).check();
      await page.getByTestId('profile-dialog').getByRole('button', { name: 'Save changes' }).click();
      // The service rescores every stored result before it answers; on a loaded machine that takes a while.
      await page.getByTestId('recalculated').waitFor({ timeout: 240_000 });
      await expect(page.getByTestId('recalculated').textContent()).resolves.toMatch(
        /^Recalculated against the European reference: /,
      );
      await page.getByRole('radio', { name: /^Not available/ }).check();
      const na = page.locator('.trait-row.status-not-applicable').first();
      await na.waitFor();
      await expect(na.locator('.row-reason').textContent()).resolves.toMatch(/\w/);
      await page.getByRole('radio', { name: /^Results/ }).check();
      expect(await unlabeledControls(page)).toEqual([]);
    },
  );

  it('sorts and filters over the whole catalog', async () => {
    await openAda();
    const { page } = browser;
    await page.getByLabel('Sort').selectOption('percentile_high');
    const pcts = (
      await page
        .locator('.trait-row[data-status=computed]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-percentile'))))
    ).slice(0, 20);
    expect(pcts).toEqual([...pcts].sort((a, b) => b - a));
    await page.getByRole('checkbox', { name: 'Strong' }).check();
    const pills = await page.locator('.trait-row .evidence-pill').allTextContents();
    expect(pills.length).toBeGreaterThan(0);
    expect(new Set(pills)).toEqual(new Set(['Strong evidence']));
    await page.getByRole('checkbox', { name: 'Strong' }).uncheck();
    const category = (await page.getByLabel('Category').locator('option').nth(1).getAttribute('value'))!;
    await page.getByLabel('Category').selectOption(category);
    expect(
      new Set(await page.locator('.trait-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-category')))),
    ).toEqual(new Set([category]));
    await page.getByLabel('Category').selectOption('');
    await page.getByLabel('Sort').selectOption('notable');
  });

  it('opens a result with its level, reference, evidence, captioned plot and only reachable levels; back restores the list', async () => {
    await openAda();
    const { page } = browser;
    await page.getByTestId('trait-browser').scrollIntoViewIfNeeded();
    // The row to open in view first, so the click does not scroll the list on its own.
    await page.locator('.trait-row[data-status=computed] .trait-name').first().scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => document.getElementById('main-content')!.scrollTop);
    expect(before).toBeGreaterThan(0);
    const link = page.getByTestId('summary').getByTestId('notable').first().locator('a');
    const name = (await link.textContent())!;
    await page.locator('.trait-row[data-status=computed] .trait-name').first().click();
    const view = page.getByTestId('assessment-view');
    await view.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.title()).toMatch(/ – Ada Lovelace – Traitscope$/);
    await expect(page.getByTestId('result-reference').textContent()).resolves.toMatch(
      /^Compared with: European \(EUR\)/,
    );
    await expect(page.getByTestId('result-evidence').textContent()).resolves.toMatch(/How much the score explains/);
    const plot = page.getByTestId('distribution-plot');
    await expect(plot.locator('figcaption').textContent()).resolves.toMatch(/Levels this score can reach: 1 /);
    await expect(page.getByTestId('percentile').textContent()).resolves.toMatch(
      /^(\d+(st|nd|rd|th)|>99\.9th|<0\.1st)$/,
    );
    expect(await unlabeledControls(page)).toEqual([]);
    await screenshot(page, '04-detail');
    await page.goBack();
    await page.getByTestId('trait-browser').waitFor();
    await page.waitForFunction((y) => Math.abs(document.getElementById('main-content')!.scrollTop - y) < 40, before);
    expect(name.length).toBeGreaterThan(0);
  });

  it('builds a report: sections to choose, how to read and the reference on page 1, the name and page numbers on every page; CSV and JSON', async () => {
    await openAda();
    const { page } = browser;
    await page.getByRole('button', { name: 'Report' }).click();
    const report = page.getByTestId('report-view');
    await report.getByRole('heading', { name: 'Genetic trait report' }).waitFor();
    expect(await page.title()).toBe('Traitscope report – Ada Lovelace');
    const doc = page.getByTestId('report-document');
    // Page 1: how to read, the reference, then the notable results, before everything else.
    const headings = await doc.locator('h2').allTextContents();
    expect(headings.slice(0, 2)).toEqual(['How to read this report', 'Notable results']);
    await expect(page.getByTestId('report-reference').textContent()).resolves.toMatch(
      /Results compared with: European \(EUR\)/,
    );
    // Every printed page: the title in the top margin, "Page n of m" at the bottom.
    const margins = await page.evaluate(() => {
      const out: Record<string, string> = {};
      for (const sheet of [...document.styleSheets, ...document.adoptedStyleSheets])
        for (const rule of sheet.cssRules)
          if (rule instanceof CSSPageRule)
            for (const inner of rule.cssRules)
              if ('name' in inner)
                out[(inner as CSSRule & { name: string }).name] = (
                  inner as unknown as CSSStyleRule
                ).style.getPropertyValue('content');
      return out;
    });
    expect(margins['top-left']).toBe('"Traitscope report – Ada Lovelace"');
    expect(margins['bottom-right']).toMatch(/counter\(page\).*counter\(pages\)/);
    // The default report, printed by Chromium: at most 12 pages, every result left to opt in.
    const pages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    expect(await doc.getByRole('heading', { name: /^All results/ }).count()).toBe(0);
    const defaultPages = pages(await page.pdf({ format: 'A4' }));
    expect(defaultPages).toBeGreaterThanOrEqual(1);
    expect(defaultPages).toBeLessThanOrEqual(12);
    // Sections opt in, and out again.
    await report.getByRole('checkbox', { name: /^All results/ }).check();
    await doc.getByRole('heading', { name: /^All results/ }).waitFor();
    expect(pages(await page.pdf({ format: 'A4' }))).toBeGreaterThan(defaultPages);
    await report.getByRole('checkbox', { name: /^All results/ }).uncheck();
    expect(await doc.getByRole('heading', { name: /^All results/ }).count()).toBe(0);
    await screenshot(page, '05-report');
    // Page 1 as printed: the top of the document, one A4 page tall.
    await page.emulateMedia({ media: 'print' });
    const box = (await doc.boundingBox())!;
    await page.screenshot({
      path: `${SCREENSHOTS}/05b-report-page-1.png`,
      fullPage: true,
      clip: { x: box.x, y: box.y, width: box.width, height: Math.round(box.width * 1.414) },
    });
    await page.emulateMedia({ media: 'screen' });

    // With sensitive results shown, the CSV button also saves the medication card as a second file.
    const [csv] = await Promise.all([
      page.waitForEvent('download', { predicate: (d) => /(?<!-medications)\.csv$/.test(d.suggestedFilename()) }),
      report.getByRole('button', { name: 'CSV' }).click(),
    ]);
    const lines = readFileSync((await csv.path())!, 'utf8').split('\r\n');
    const header = lines[0].replace(/^\uFEFF/, '').split(',');
    expect(header).toEqual(
      expect.arrayContaining(['trait_code', 'reference', 'markers_observed', 'markers_imputed', 'genotypes']),
    );
    expect(header).not.toContain('pricing');
    expect(lines[1]).toMatch(/rs\d+:([ACGT]{1,2}|--|\?)/);
    const [json] = await Promise.all([
      page.waitForEvent('download', { predicate: (d) => d.suggestedFilename().endsWith('.json') }),
      report.getByRole('button', { name: 'JSON' }).click(),
    ]);
    const body = JSON.parse(readFileSync((await json.path())!, 'utf8')) as {
      profile: { first_name: string };
      results: Array<Record<string, unknown>>;
    };
    expect(body.profile.first_name).toBe('Ada');
    expect(body.results[0]).not.toHaveProperty('pricing');
  });

  it('recognises a file imported twice and offers the profile it belongs to', async () => {
    await openAda();
    const { page } = browser;
    await dropFiles(page, [{ name: 'copy of my genome.txt', content: FILE }], 'drop-new');
    const tray = page.getByTestId('job-tray');
    await tray.getByText('Already imported as Ada Lovelace').waitFor();
    await tray.getByRole('button', { name: 'Open Ada Lovelace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    expect((await app.api<Profile[]>('GET', '/profiles/')).body).toHaveLength(1);
  });
});

describe('every screen in both themes, any window, by keyboard', () => {
  it('has no serious or critical axe violations on any screen, light or dark', async () => {
    await signIn();
    const ada = await adaProfile();
    const { page } = browser;
    const found: string[] = [];
    const check = async (screen: string) => found.push(...(await axeBothThemes(page)).map((v) => `${screen} ${v}`));
    await page.goto(`${app.origin}/#/`);
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    await check('home');
    await openFresh(page, `${app.origin}/#/profiles/${ada.id}`);
    await page.getByTestId('summary').waitFor();
    // The result rows come with the lists, after the summary: check the page with them.
    await page.locator('.trait-row[data-status=computed]').first().waitFor();
    await check('profile');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('profile-dialog').waitFor();
    await check('profile dialog');
    await page.keyboard.press('Escape');
    await page.locator('.trait-row[data-status=computed] .trait-name').first().click();
    await page.getByTestId('distribution-plot').waitFor();
    await check('detail');
    await page.goto(`${app.origin}/#/profiles/${ada.id}/report`);
    await page.getByTestId('report-document').waitFor();
    await check('report');
    await page.goto(`${app.origin}/#/settings`);
    await page.getByTestId('settings-view').waitFor();
    // Your data comes before developer API access.
    expect((await page.getByTestId('settings-view').locator('h2').allTextContents()).slice(0, 2)).toEqual([
      'Your data',
      'API access',
    ]);
    await check('settings');
    expect(found).toEqual([]);
  });

  it('is usable at 800×600 and at 200 % zoom: the sidebar folds, nothing overflows, a result is above the fold', async () => {
    const ada = await openAda();
    const { page } = browser;
    // Disease results shown, as the findings test chose: the page's first results are the findings.
    const question = page.getByTestId('sensitive-question');
    if (await question.count()) await question.getByRole('button', { name: 'Show them' }).click();
    try {
      for (const [width, height, name] of [
        [800, 600, '800x600'],
        [660, 430, 'zoom-200'],
      ] as const) {
        await page.setViewportSize({ width, height });
        await openFresh(page, `${app.origin}/#/profiles/${ada.id}`);
        await page.getByTestId('summary').waitFor();
        await page.getByTestId('finding-lactase_persistence').waitFor();
        const menu = page.getByRole('button', { name: 'Menu' });
        await expect(menu.isVisible()).resolves.toBe(true);
        expect(
          await page
            .getByRole('navigation', { name: 'Main' })
            .getByRole('link', { name: /Ada Lovelace/ })
            .isVisible(),
        ).toBe(false);
        const overflow = await page.evaluate(() => {
          const main = document.getElementById('main-content')!;
          return main.scrollWidth - main.clientWidth;
        });
        expect(overflow).toBeLessThanOrEqual(1);
        await screenshot(page, `06-${name}`);
        // Single-variant findings come first, then the notable results: the first of either.
        const first = await page.locator('[data-testid^="finding-"], [data-testid=notable]').first().boundingBox();
        expect(first!.y).toBeLessThan(height);
        await menu.click();
        await page.getByRole('link', { name: 'Settings' }).waitFor();
        await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
        await menu.click();
      }
    } finally {
      await page.setViewportSize({ width: 1320, height: 860 });
    }
  });

  it('walks import → summary → detail → report by keyboard alone', { timeout: 300_000 }, async () => {
    await signIn();
    const { page } = browser;
    // Waiting for a file chooser makes Playwright intercept choosers, but it tells the browser
    // so without waiting for it: an Enter pressed at once could open the chooser first, and
    // headless Chromium cancels a chooser nobody intercepts within milliseconds (the page then
    // removes its file input). Pressed right after the wait began, 5 of 40 Enters in a row did
    // that under load; none once a few round trips came between. So the wait begins first.
    const chooser = page.waitForEvent('filechooser', { timeout: 120_000 });
    chooser.catch(() => undefined); // awaited below; a failure before then is the one to report
    await page.goto(`${app.origin}/#/`);
    await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    await page.locator('body').focus();
    await tabTo(page, (el) => el.textContent?.trim() === 'Add DNA file');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Add DNA file');
    await page.keyboard.press('Enter');
    await (
      await chooser
    ).setFiles({
      name: 'genome_Grace_Hopper_v5.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(personFile({ seed: 21, extra: FINDING_CALLS })),
    });
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    await page.getByTestId('genotype-card').waitFor({ timeout: 60_000 });
    const grace = (await app.api<Profile[]>('GET', '/profiles/')).body.find((p) => p.first_name === 'Grace')!;
    await waitForAllResults(page, app, grace.id);
    await page.getByTestId('summary').waitFor();
    // The opt-in question is answered by keyboard; focus stays on the page, not lost.
    await tabTo(page, (el) => el.textContent?.trim() === 'Keep them hidden');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'summary-title');
    await tabTo(page, (el) => !!el.closest('[data-testid=notable]') && el.tagName === 'A');
    const label = await page.evaluate(() => document.activeElement!.getAttribute('aria-label'));
    expect(label).toMatch(/percentile/);
    await page.keyboard.press('Enter');
    await page.getByTestId('assessment-view').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await tabTo(page, (el) => el.closest('nav[aria-label=Breadcrumb]') !== null);
    await page.keyboard.press('Enter');
    await page.getByTestId('summary').waitFor();
    await tabTo(page, (el) => el.textContent?.trim() === 'Report');
    await page.keyboard.press('Enter');
    await page.getByTestId('report-document').waitFor();
    expect(await page.title()).toBe('Traitscope report – Grace Hopper');
    expect(browser.errors).toEqual([]);
  });
});
