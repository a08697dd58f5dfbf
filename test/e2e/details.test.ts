/**
 * The details of the result pages, in real Chromium against the real service: the plot's
 * tick labels never overlap (800×600 and 200 % zoom), every link to an online resource says
 * it leaves Traitscope, a notable result that rests on a rare call says so, and the DNA
 * file's details say how its sites were read, with the choice to read a VCF the other way.
 * One server and one browser for the file; each test makes the profile it needs.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/shared/api.js';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import {
  catalogMarkers,
  combine,
  FINDING_CALLS,
  markersOf,
  personFile,
  sequencingVcf,
  withRelativeSample,
} from '../support/genotypes.js';
import { contextOf, genotypeOf } from '../science/helpers.js';
import { openBrowser, openFresh, ROOT, scoredProfile, startApp, type Browser, type RunningApp } from './support/app.js';

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), openBrowser()]);
  await browser.page.goto(app.signInUrl);
  await browser.page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const person = () =>
  scoredProfile(app, { first_name: 'Rosalind', last_name: 'Franklin' }, personFile({ extra: FINDING_CALLS }));

/** The profile's page, loaded afresh, with its summary and with disease results shown. */
async function openProfile(profile: Profile): Promise<void> {
  const { page } = browser;
  await openFresh(page, `${app.origin}/#/profiles/${profile.id}`);
  await page.getByTestId('summary').waitFor({ timeout: 60_000 });
  const question = page.getByTestId('sensitive-question');
  if (await question.count()) await question.getByRole('button', { name: 'Show them' }).click();
  await page.locator('.trait-row[data-status=computed]').first().waitFor({ timeout: 60_000 });
}

/** Pairs of tick labels (and axis labels) of the plot whose boxes on screen overlap. */
async function overlappingLabels(): Promise<string[]> {
  return browser.page.getByTestId('distribution-plot').evaluate((plot) => {
    const boxes = [...plot.querySelectorAll('.plot-tick-label, .plot-axis-label')].map((el) => ({
      text: el.textContent ?? '',
      box: el.getBoundingClientRect(),
    }));
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].box;
        const b = boxes[j].box;
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          out.push(`${boxes[i].text} × ${boxes[j].text}`);
      }
    return out;
  });
}

describe('the distribution plot', () => {
  it('writes tick labels that never overlap, at 800×600 and at 200 % zoom, and that stay readable', async () => {
    // Scores of one or two markers have a few atoms, so several level bounds fall on the
    // same score: the case where ticks collide. And the featured scores of many markers.
    const profile = await scoredProfile(
      app,
      { first_name: 'Few', last_name: 'Markers' },
      personFile({ seed: 3, traits: (t) => t.featured || t.markers.rsid.length <= 2 }),
    );
    const { page } = browser;
    const scored = (
      await app.api<
        Array<{
          trait: { code: string; quality?: { markers?: number } };
          status: string;
          evidence?: { markers_total?: number };
        }>
      >('GET', `/profiles/${profile.id}/traits/?score`)
    ).body.filter((r) => r.status === 'computed');
    const markers = (r: (typeof scored)[number]) => r.evidence?.markers_total ?? r.trait.quality?.markers ?? 0;
    const single = scored.filter((r) => markers(r) <= 2).slice(0, 3);
    const many = scored.filter((r) => markers(r) > 20).slice(0, 1);
    expect(single.length).toBeGreaterThan(0);
    expect(many.length).toBe(1);
    let thinned = 0;
    try {
      for (const [width, height] of [
        [800, 600],
        [660, 430],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const r of [...single, ...many]) {
          await openFresh(page, `${app.origin}/#/profiles/${profile.id}/traits/${encodeURIComponent(r.trait.code)}`);
          const plot = page.getByTestId('distribution-plot');
          await plot.waitFor();
          await page.waitForFunction(() => document.querySelectorAll('.plot-tick-label').length > 0);
          expect(await overlappingLabels(), `${r.trait.code} at ${width}×${height}`).toEqual([]);
          const [lines, labels] = await plot.evaluate((el) => [
            el.querySelectorAll('.plot-tick').length,
            el.querySelectorAll('.plot-tick-label').length,
          ]);
          if (labels < lines) thinned++;
          const smallest = await plot.evaluate((el) =>
            Math.min(...[...el.querySelectorAll('.plot-tick-label')].map((t) => t.getBoundingClientRect().height)),
          );
          // Text 11 px tall on screen has a box of about 13 px; 9 px would be unreadably small.
          expect(smallest, `${r.trait.code} at ${width}×${height}`).toBeGreaterThanOrEqual(11);
        }
      }
    } finally {
      await page.setViewportSize({ width: 1320, height: 860 });
    }
    // The case the labels would collide in was met: some bound's label was left out.
    expect(thinned).toBeGreaterThan(0);
  });
});

describe('links out of the app', () => {
  it('say, to eyes and to screen readers, that they leave Traitscope: findings, drug–gene results and a result’s page', async () => {
    const profile = await person();
    const { page } = browser;
    await openProfile(profile);
    await page.getByTestId('finding-apoe').waitFor();
    const outside = async () =>
      page.locator('a[href^="http"]').evaluateAll(
        (links, origin) =>
          links
            .filter((a) => !(a as HTMLAnchorElement).href.startsWith(origin))
            .map((a) => ({
              href: (a as HTMLAnchorElement).href,
              text: a.textContent ?? '',
              title: a.getAttribute('title') ?? '',
            })),
        app.origin,
      );
    const onProfile = await outside();
    expect(onProfile.filter((l) => l.href.startsWith('https://pubmed.ncbi.nlm.nih.gov/')).length).toBeGreaterThan(0);
    for (const l of onProfile) {
      expect(l.text, l.href).toMatch(/opens [\w.]+ in your web browser, outside Traitscope/);
      expect(l.title, l.href).toMatch(/outside Traitscope$/);
    }
    // The citation stays on hover, before where the link goes.
    const apoeLink = page.getByTestId('finding-apoe').getByRole('link', { name: /PMID 8346443/ });
    await expect(apoeLink.getAttribute('title')).resolves.toMatch(/\w.*\. Opens pubmed\.ncbi\.nlm\.nih\.gov/);

    await page.locator('.trait-row[data-status=computed] .trait-name').first().click();
    await page.getByTestId('assessment-view').waitFor();
    const onResult = await outside();
    expect(onResult.length).toBeGreaterThan(0);
    for (const l of onResult) expect(l.text, l.href).toMatch(/outside Traitscope/);
  });
});

describe('a result resting on a rare call', () => {
  const resourcesDir = path.join(ROOT, 'resources');

  /**
   * A featured risk whose markers are all at the genotype nearest their average dosage but
   * one allele rarer than 1 % in Europeans, called heterozygous: found with the engine the
   * service runs, the one whose rare call moves the risk furthest from average.
   */
  function rareCallCase(): { code: string; rsid: string; calls: Array<[string, string]> } {
    const engine = createScienceEngine({ resourcesDir });
    const complement: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' };
    let best: { code: string; rsid: string; calls: Array<[string, string]>; points: number } | null = null;
    for (const t of readCatalogFile(resourcesDir).traits) {
      if (!t.featured) continue;
      const m = t.markers;
      const average: Array<[string, string]> = m.rsid.map((rs, i) => {
        const d = Math.round(2 * (m.freq.EUR[i] ?? 0));
        return [`rs${rs}`, m.effect[i].repeat(d) + m.other[i].repeat(2 - d)];
      });
      m.rsid.forEach((rs, i) => {
        if ((m.freq.EUR[i] ?? 1) >= 0.01 || m.effect[i] === complement[m.other[i]]) return;
        const calls = average.map(([id, gt]): [string, string] =>
          id === `rs${rs}` ? [id, m.effect[i] + m.other[i]] : [id, gt],
        );
        const a = engine.assess(t.code, genotypeOf(calls), contextOf(1));
        const meaning = a?.meaning as { kind?: string; yours?: number; average?: number } | undefined;
        if (!a?.rare_call || meaning?.kind !== 'risk' || typeof meaning.yours !== 'number') return;
        const points = Math.abs(meaning.yours - (meaning.average ?? 0));
        if (!best || points > best.points) best = { code: t.code, rsid: `rs${rs}`, calls, points };
      });
    }
    if (!best) throw new Error('No featured risk of the catalog has a rare call that moves it across a level.');
    return best;
  }

  it('shows the caveat beside the notable result, naming the call', async () => {
    const { code, rsid, calls } = rareCallCase();
    const profile = await scoredProfile(
      app,
      { first_name: 'Barbara', last_name: 'Rare' },
      personFile({ seed: 5, traits: (t) => t.code === code, extra: calls }),
    );
    const stored = (
      await app.api<{ rare_call?: { rsid: string } | null }>('GET', `/profiles/${profile.id}/traits/${code}`)
    ).body;
    expect(stored.rare_call?.rsid).toBe(rsid);
    const { page } = browser;
    await openProfile(profile);
    const item = page
      .getByTestId('notable')
      .filter({ has: page.locator(`a[href$="/traits/${encodeURIComponent(code)}"]`) });
    await item.waitFor();
    await expect(item.getByTestId('notable-caveat').textContent()).resolves.toMatch(
      new RegExp(`Read with care: .*rests on a rare call \\(${rsid}\\)`),
    );
  });
});

describe('how the file’s sites were read', () => {
  it('shows a chip file read as listed, with no choice to make', async () => {
    const profile = await person();
    const { page } = browser;
    await openProfile(profile);
    // The card folds to one line once the results are listed: wait for that, then unfold it.
    await page.getByTestId('genotype-card').getByRole('button', { name: 'Details' }).click();
    const reading = page.getByTestId('site-reading');
    await expect(reading.textContent()).resolves.toMatch(/Only the sites the file lists \(the usual reading\)/);
    expect(await reading.getByRole('button').count()).toBe(0);
  });

  it('shows a variants-only VCF read that way, and reads it again as listed when the person says so', async () => {
    const text = sequencingVcf(combine([markersOf(FINDING_CALLS), catalogMarkers(11, { fillerTraits: 30 })]), {
      build: 38,
      ids: 'none',
      sites: 'variants_only',
    });
    const profile = await scoredProfile(app, { first_name: 'Whole', last_name: 'Genome' }, text);
    const { page } = browser;
    await openFresh(page, `${app.origin}/#/profiles/${profile.id}`);
    await page.getByTestId('genotype-card').waitFor({ timeout: 60_000 });
    // The card folds to one line once the results are listed: wait for that, then unfold it.
    await page.getByTestId('genotype-card').getByRole('button', { name: 'Details' }).click();
    const reading = page.getByTestId('site-reading');
    await expect(reading.textContent()).resolves.toMatch(
      /^How the file’s sites were readVariants only: .*\(decided from the file’s contents\)/,
    );
    // Tens of thousands of markers from a whole genome: said why, not flagged as a cut-off file.
    const { snp_count } = (
      await app.api<{ metadata: { snp_count: number } }>('GET', `/profiles/${profile.id}/genotype/`)
    ).body.metadata;
    await expect(reading.getByTestId('file-limits').textContent()).resolves.toBe(
      `${snp_count.toLocaleString('en-US')} markers were kept: Traitscope reads such a file at the markers its results use, not at every site it lists. ` +
        'Your file has no rsIDs, so a marker is read only where Traitscope knows its GRCh38 position, and no shipped source places most markers of GWAS Catalog studies after 2017. ' +
        'Your file lists only the sites where you differ from the reference genome, so a marker whose reference allele Traitscope does not know cannot be read where you match it. ' +
        'A VCF with rsIDs (bcftools annotate with dbSNP) that lists every called site is read at all of them.',
    );
    expect(await page.getByTestId('file-warnings').count()).toBe(0);
    await reading.getByRole('button', { name: 'My file lists every site: read only its lines' }).click();
    await expect
      .poll(() => reading.textContent(), { timeout: 60_000 })
      .toMatch(/Only the sites the file lists \(as you chose\)\./);
    const metadata = (
      await app.api<{ metadata: { site_reading: string; site_reading_from: string } }>(
        'GET',
        `/profiles/${profile.id}/genotype/`,
      )
    ).body.metadata;
    expect(metadata).toMatchObject({ site_reading: 'as_listed', site_reading_from: 'person' });
    // And back: the choice works both ways.
    await reading.getByRole('button', { name: 'My file lists only variants: read the rest as reference' }).click();
    await expect.poll(() => reading.textContent(), { timeout: 60_000 }).toMatch(/Variants only: .*\(as you chose\)\./);
  });
});

describe('a VCF of several people', () => {
  it("reads the first sample, and reads the file again at the profile's own when the person chooses it", async () => {
    const text = withRelativeSample(
      sequencingVcf(combine([markersOf(FINDING_CALLS), catalogMarkers(11, { fillerTraits: 30 })]), { build: 38 }),
      'rs429358',
    );
    const profile = await scoredProfile(app, { first_name: 'Trio', last_name: 'Child' }, text);
    const { page } = browser;
    await openFresh(page, `${app.origin}/#/profiles/${profile.id}`);
    await page.getByTestId('genotype-card').waitFor({ timeout: 60_000 });
    // Until a sample is chosen, the card warns whose results these are.
    await expect(page.getByTestId('file-warnings').textContent()).resolves.toContain(
      'the first sample, "relative", was read, and the results are that person\'s',
    );
    await page.getByTestId('genotype-card').getByRole('button', { name: 'Details' }).click();
    const chooser = page.getByTestId('vcf-sample');
    await expect(chooser.textContent()).resolves.toContain('The results are those of “relative”');
    await chooser.getByLabel('Sample').selectOption('me');
    await chooser.getByRole('button', { name: 'Read this sample' }).click();
    await expect.poll(() => chooser.textContent(), { timeout: 60_000 }).toContain('The results are those of “me”');
    const rs429358 = async () =>
      (await app.api<Array<{ genotype: string }>>('GET', `/profiles/${profile.id}/genotype/snps/?rsid=rs429358`))
        .body[0]?.genotype;
    expect(await rs429358()).toBe('CT');
    // The sample is chosen: no warning of whose results these are (only the test file's small size is).
    await expect(page.getByTestId('file-warnings').textContent()).resolves.not.toContain('sample');
  });
});
