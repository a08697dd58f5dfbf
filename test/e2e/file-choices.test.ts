/**
 * Files and whose they are: a second file for a name that already has a profile offers
 * replace / new profile / cancel; a file whose name names someone else asks whose it is;
 * the reference dialog pre-selects nothing the person did not choose; a sequencing VCF
 * dropped with its index is imported alone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/shared/api.js';
import { catalogMarkers, personFile, sequencingVcf } from '../support/genotypes.js';
import {
  axeViolations,
  dropFiles,
  openBrowser,
  screenshot,
  startApp,
  uploadThroughApi,
  type Browser,
  type RunningApp,
} from './support/app.js';

describe('whose file is this', () => {
  let app: RunningApp;
  let browser: Browser;
  let maria: Profile;
  const profiles = async () => (await app.api<Profile[]>('GET', '/profiles/')).body;

  beforeAll(async () => {
    // bypassCSP only so the test can inject axe-core; the app's own code runs under its CSP.
    [app, browser] = await Promise.all([startApp(), openBrowser({ bypassCSP: true })]);
    maria = (await app.api<Profile>('POST', '/profiles/', { first_name: 'Maria', last_name: 'Rossi' })).body;
    await uploadThroughApi(app, maria.id, personFile({ seed: 21, fillerTraits: 40 }));
    await browser.page.goto(app.signInUrl);
    await browser.page
      .getByRole('link', { name: /Maria Rossi/ })
      .first()
      .click();
    await browser.page.getByRole('heading', { level: 1, name: 'Maria Rossi' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('offers replace, new profile or cancel for a second file of a name that has a profile', async () => {
    const { page } = browser;
    const file = {
      name: 'genome_Maria_Rossi_v5_Full_20250101.txt',
      content: personFile({ seed: 22, fillerTraits: 40 }),
    };
    await dropFiles(page, [file], 'drop-new');
    const job = page.getByTestId('job-tray').locator('li').filter({ hasText: file.name });
    await job.getByText('Maria Rossi already has a profile').waitFor();
    await job.getByRole('button', { name: 'Replace Maria Rossi’s DNA file' }).waitFor();
    await job.getByRole('button', { name: 'New profile' }).waitFor();
    await screenshot(page, '40-same-name');
    expect(await axeViolations(page, '[data-testid=job-tray]')).toEqual([]);
    await job.getByRole('button', { name: 'Cancel' }).click();
    await expect(job.count()).resolves.toBe(0);
    expect((await profiles()).map((p) => p.first_name)).toEqual(['Maria']);
  });

  it('asks whose a file is when its name names another person, and changes nothing on cancel', async () => {
    const { page } = browser;
    const before = (await app.api<{ md5_hash?: string }>('GET', `/profiles/${maria.id}/genotype/`)).body;
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Replace DNA file' }).click(),
    ]);
    await chooser.setFiles({
      name: 'genome_John_Smith_v5_Full_20240314.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(personFile({ seed: 23, fillerTraits: 40 })),
    });
    const dialog = page.getByTestId('replace-dialog');
    await dialog.getByRole('heading', { name: 'Whose DNA file is this?' }).waitFor();
    await expect(dialog.getByTestId('other-person-warning').textContent()).resolves.toMatch(
      /suggests it belongs to John Smith, not Maria Rossi/,
    );
    await dialog.getByRole('button', { name: 'It is Maria Rossi’s' }).waitFor();
    await dialog.getByRole('button', { name: 'New profile for John Smith' }).waitFor();
    await screenshot(page, '41-other-person');
    expect(await axeViolations(page, '[data-testid=replace-dialog]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('replace-dialog').count()).resolves.toBe(0);
    const after = (await app.api<{ md5_hash?: string }>('GET', `/profiles/${maria.id}/genotype/`)).body;
    expect(after.md5_hash).toBe(before.md5_hash);
    expect(await profiles()).toHaveLength(1);
    expect(browser.errors).toEqual([]);
  });

  it('imports a sequencing VCF dropped with its index, and says the index was not imported', async () => {
    const { page } = browser;
    const vcf = { name: 'NG7Q2X.vcf.gz', content: gzipSync(sequencingVcf(catalogMarkers(31, { fillerTraits: 30 }))) };
    // A real tabix index, as bcftools writes one beside a .vcf.gz.
    const tbi = path.join(import.meta.dirname, '..', 'fixtures', 'genotypes', 'vcf_single.vcf.gz.tbi');
    const index = { name: 'NG7Q2X.vcf.gz.tbi', content: readFileSync(tbi) };
    await dropFiles(page, [vcf, index], 'drop-new');
    const tray = page.getByTestId('job-tray');
    await tray
      .locator('li')
      .filter({ hasText: index.name })
      .getByText('Not imported: it is the index of NG7Q2X.vcf.gz and holds no genotypes')
      .waitFor();
    expect(await axeViolations(page, '[data-testid=job-tray]')).toEqual([]);
    // The VCF's profile opens once created; when both files are through, the folded tray counts them apart.
    await page.getByRole('heading', { level: 1, name: 'NG7Q2X' }).waitFor();
    await tray.getByText('1 file imported · 1 index file left out').waitFor({ timeout: 60_000 });
    const names = (await profiles()).map((p) => p.first_name).sort();
    expect(names).toEqual(['Maria', 'NG7Q2X']);
    expect(browser.errors).toEqual([]);
  });
});
