/**
 * "Open with Traitscope" without the round trip: the desktop app's main process hosts the
 * service and hands it the path of a file the operating system opened (src/main/open-files.ts
 * calls RunningService.ingestFile, src/service/storage/local-ingest.ts). Here the bundled
 * service (out/main/library.js) runs in this process, as in the main process, on a real data
 * folder: a file on disk is stored and processed as an upload is, with the same size limit,
 * the same plausibility checks for a first file and for a replacement, and nothing changed
 * when it is refused. The main process's side (src/main/opened-files.ts: handles for the page,
 * the MD5 for its already-imported check, storing through the service) runs here as it
 * does there. Last, the built UI in real Chromium, given a stand-in for the preload bridge
 * that calls those same functions (Electron cannot run here), takes opened files through the
 * drop flow: a new profile, and for a name that has a profile the choice to replace its file;
 * the page never requests an upload URL nor sends the file. It also shows, until dismissed,
 * the notice the main process sends when the service could not use its usual port.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenotypeMetadata, Profile } from '../../src/shared/api.js';
import type { JobEvent } from '../../src/shared/events.js';
import type { RunningService } from '../../src/service/index.js';
import { openedFiles } from '../../src/main/opened-files.js';
import type { OpenedFile } from '../../src/shared/desktop-bridge.js';
import { openBrowser, type Browser } from '../e2e/support/app.js';
import { chipMarkers, personFile, twentyThreeAndMe, type Marker } from '../support/genotypes.js';
import { ROOT, tempDir } from '../support/server.js';

type Library = typeof import('../../src/service/library.js');

/** The upload limit of this service: small, so a file over it is cheap to write. */
const LIMIT_BYTES = 8 * 1024 * 1024;

const root = tempDir('traitscope-open-with-');
const files = path.join(root, 'files');
let service: RunningService;

beforeAll(async () => {
  mkdirSync(files);
  const library = (await import(pathToFileURL(path.join(ROOT, 'out', 'main', 'library.js')).href)) as Library;
  service = await library.startService({
    dataDir: path.join(root, 'data'),
    port: 0,
    uiDir: path.join(ROOT, 'out', 'renderer'),
    workers: 1,
    maxUploadBytes: LIMIT_BYTES,
  });
});

afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

async function api<T>(method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service.origin}/api${route}`, {
    method,
    headers: {
      Authorization: `Bearer ${service.appToken()}`,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const newProfile = (firstName: string) => api<Profile>('POST', '/profiles/', { first_name: firstName });
const genotypeOf = (id: string) => api<GenotypeMetadata>('GET', `/profiles/${id}/genotype/`);

function fileOnDisk(name: string, content: string | Buffer): string {
  const file = path.join(files, name);
  writeFileSync(file, content);
  return file;
}

const md5Base64 = (content: string | Buffer) => createHash('md5').update(content).digest('base64');
const storedFiles = () => readdirSync(path.join(root, 'data', 'genotypes')).sort();

/** The end of the profile's processing job, as the events stream announces it to the page. */
function processingEnd(profileId: string): Promise<JobEvent> {
  return new Promise((resolve) => {
    const stop = service.processor.events.subscribe((event) => {
      if (event.type !== 'job' || event.data.kind !== 'processing' || event.data.profile_id !== profileId) return;
      if (event.data.state === 'done' || event.data.state === 'failed') {
        stop();
        resolve(event.data);
      }
    });
  });
}

/** Stores the file as the profile's and waits until it is processed (or failed). */
async function ingestAndProcess(filePath: string, profileId: string) {
  const ended = processingEnd(profileId);
  const stored = await service.ingestFile(filePath, profileId);
  const end = await ended;
  return { stored, end, genotype: await genotypeOf(profileId) };
}

const homozygous = (markers: Marker[]) =>
  markers.map((m) => (m.genotype.length === 2 ? { ...m, genotype: m.genotype[0] + m.genotype[0] } : m));

describe('a file opened from the operating system', () => {
  let ada: Profile;
  const genome = personFile({ seed: 31, fillerTraits: 40 });

  it('is stored from disk as the profile’s file, processed and scored, and announced by its job id', async () => {
    ada = await newProfile('Ada');
    const file = fileOnDisk('genome_Ada_v5_Full.txt', genome);
    const { stored, end, genotype } = await ingestAndProcess(file, ada.id);
    expect(stored.size).toBe(Buffer.byteLength(genome));
    expect(stored.md5).toBe(md5Base64(genome));
    // The page follows the job by the id it is given, in the events stream.
    expect(stored.jobId).toBe(end.job_id);
    expect(end.state).toBe('done');
    expect(genotype.md5_hash).toBe(md5Base64(genome));
    expect(genotype.content_type).toBe('text/plain');
    expect(genotype.metadata).toMatchObject({ status: 'processed' });
    expect(genotype.metadata.snp_count).toBeGreaterThan(1000);
  });

  it('replaces the profile’s file with another genome of the person', async () => {
    const newer = personFile({ seed: 32, fillerTraits: 40 });
    const { genotype } = await ingestAndProcess(fileOnDisk('genome_Ada_v5_Full_newer.txt', newer), ada.id);
    expect(genotype.md5_hash).toBe(md5Base64(newer));
    expect(genotype.metadata).toMatchObject({ status: 'processed' });
    expect(genotype.metadata.needs_confirmation).toBeUndefined();
  });

  it('refuses, as a first file, one whose calls no person has, and says why', async () => {
    const bo = await newProfile('Bo');
    const file = fileOnDisk(
      'all-homozygous.txt',
      twentyThreeAndMe(homozygous(chipMarkers(61_000, 3, { internalIds: false }))),
    );
    const { end, genotype } = await ingestAndProcess(file, bo.id);
    expect(end.state).toBe('failed');
    expect(genotype.metadata.status).toBe('failed');
    expect(genotype.metadata.error).toMatch(/does not look like one person's genotype: .*heterozygous/);
    expect(genotype.metadata.snp_count).toBeUndefined();
  });

  it('holds back, as a replacement, a file far smaller than the genome in use until the person confirms', async () => {
    const before = await genotypeOf(ada.id);
    const partial = genome.split('\n').slice(0, 400).join('\n') + '\n';
    const { genotype } = await ingestAndProcess(fileOnDisk('genome_Ada_part.txt', partial), ada.id);
    expect(genotype.metadata.needs_confirmation).toBe(true);
    expect(genotype.metadata.error).toMatch(/far fewer than the .* of the genotype in use/);
    // The genome in use and what it says are kept.
    expect(genotype.metadata.snp_count).toBe(before.metadata.snp_count);
  });

  it('refuses a file over the upload limit, an empty file, a folder and a missing file, and keeps what was stored', async () => {
    const before = await genotypeOf(ada.id);
    const storedBefore = storedFiles();
    const tooLarge = fileOnDisk('huge.txt', Buffer.alloc(LIMIT_BYTES + 1, 0x41));
    await expect(service.ingestFile(tooLarge, ada.id)).rejects.toThrow(
      /huge\.txt \(8\.0 MiB\) is larger than the 8 MiB upload limit. Open the raw data file itself, or a zip\/gzip of it\./,
    );
    await expect(service.ingestFile(fileOnDisk('empty.txt', ''), ada.id)).rejects.toThrow(
      /empty\.txt is empty\. Download your raw data again/,
    );
    await expect(service.ingestFile(files, ada.id)).rejects.toThrow(
      /files is not a file\. Open the DNA raw-data file itself\./,
    );
    await expect(service.ingestFile(path.join(files, 'gone.txt'), ada.id)).rejects.toThrow(
      /gone\.txt cannot be read \(ENOENT\)\. Check that the file exists and that you may read it\./,
    );
    expect(await genotypeOf(ada.id)).toEqual(before);
    expect(storedFiles()).toEqual(storedBefore);
  });

  it('refuses a file for a profile that no longer exists, and leaves no file behind', async () => {
    const gone = await newProfile('Gone');
    await api('DELETE', `/profiles/${gone.id}/`);
    const storedBefore = storedFiles();
    await expect(service.ingestFile(fileOnDisk('genome_Gone.txt', genome), gone.id)).rejects.toThrow(
      /The profile for genome_Gone\.txt no longer exists/,
    );
    expect(storedFiles()).toEqual(storedBefore);
  });
});

describe('the main process’s handles of opened files', () => {
  it('gives the page the name, size and last bytes of each file, never its path or contents', async () => {
    const content = personFile({ seed: 33, fillerTraits: 10 }).trimEnd(); // ends mid-line, as a cut-off download
    const file = fileOnDisk('genome_Cut_Off.txt', content);
    const { files: described, problems } = await openedFiles().describe([file], LIMIT_BYTES);
    expect(problems).toEqual([]);
    expect(described).toHaveLength(1);
    const [f] = described;
    expect(f.name).toBe('genome_Cut_Off.txt');
    expect(f.size).toBe(Buffer.byteLength(content));
    expect(Buffer.from(f.tail).toString()).toBe(Buffer.from(content).subarray(-512).toString());
    expect(JSON.stringify({ ...f, tail: [] })).not.toContain(files);
  });

  it('refuses, with the reason, a folder, a missing file and a file over the upload limit', async () => {
    const tooLarge = fileOnDisk('huge.txt', Buffer.alloc(LIMIT_BYTES + 1, 0x41));
    const { files: described, problems } = await openedFiles().describe(
      [files, path.join(files, 'gone.txt'), tooLarge],
      LIMIT_BYTES,
    );
    expect(described).toEqual([]);
    expect(problems[0]).toBe('files: it is not a file');
    expect(problems[1]).toMatch(/^gone\.txt: ENOENT/);
    expect(problems[2]).toBe(
      'huge.txt: it is larger than the 8 MiB upload limit; open the raw data file itself, or a zip/gzip of it. ' +
        'From a sequencing service, use the VCF of your variants, not its gVCF, BAM or CRAM.',
    );
  });

  it('hashes an opened file as the service does, and stores only files it opened', async () => {
    const opened = openedFiles();
    const content = personFile({ seed: 34, fillerTraits: 10 });
    const [f] = (await opened.describe([fileOnDisk('genome_Dee.txt', content)], LIMIT_BYTES)).files;
    expect(await opened.md5(f.ref)).toBe(md5Base64(content));
    const dee = await newProfile('Dee');
    const ended = processingEnd(dee.id);
    const result = await opened.store(f.ref, dee.id, service.ingestFile);
    expect(result).toMatchObject({ stored: true });
    expect((await ended).state).toBe('done');
    expect((await genotypeOf(dee.id)).md5_hash).toBe(md5Base64(content));
    // A handle of another run (or made up by a page) names no file.
    expect(await opened.store('not-a-handle', dee.id, service.ingestFile)).toEqual({
      stored: false,
      error: 'This file was not opened in Traitscope in this session. Open it again.',
    });
    // The service's refusal comes back as its sentence.
    await api('DELETE', `/profiles/${dee.id}/`);
    expect(await opened.store(f.ref, dee.id, service.ingestFile)).toEqual({
      stored: false,
      error: 'The profile for genome_Dee.txt no longer exists. Open the file again to make a new profile.',
    });
  });
});

/**
 * The preload bridge as the page sees it (src/preload/index.ts), each call answered by what
 * the main process does for it (src/main/ipc.ts): a session of the app's client, and the
 * opened files' handles of src/main/opened-files.ts over the in-process service.
 */
async function withStandInBridge(browser: Browser) {
  const opened = openedFiles();
  await browser.page.exposeFunction('traitscopeMain', async (call: string, ...args: string[]) => {
    if (call === 'session') return { baseUrl: service.origin, token: service.appToken() };
    if (call === 'hash') return opened.md5(args[0]);
    if (call === 'store') return opened.store(args[0], args[1], service.ingestFile);
    throw new Error(`no such call: ${call}`);
  });
  await browser.page.addInitScript(() => {
    type Main = (call: string, ...args: string[]) => Promise<unknown>;
    const main = (window as unknown as { traitscopeMain: Main }).traitscopeMain;
    const w = window as unknown as Record<string, unknown>;
    w.traitscope = {
      platform: 'linux',
      getSession: () => main('session'),
      printToPDF: () => Promise.resolve({ saved: false }),
      revealDataFolder: () => Promise.resolve(),
      hashOpenedFile: (ref: string) => main('hash', ref),
      storeOpenedFile: (ref: string, profileId: string) => main('store', ref, profileId),
      onOpenFiles(listener: (files: unknown[]) => void) {
        // What the main process sends on IPC.openFiles; bytes arrive as a Uint8Array, as over IPC.
        w.deliverOpenedFiles = (list: Array<{ tail: number[] }>) =>
          listener(list.map((f) => ({ ...f, tail: new Uint8Array(f.tail) })));
        return () => void delete w.deliverOpenedFiles;
      },
      onMenu: () => () => undefined,
      onNotice(listener: (notice: unknown) => void) {
        w.deliverNotice = listener;
        return () => void delete w.deliverNotice;
      },
    };
  });
  /** The operating system opens files with the app: the main process describes them and sends them to the page. */
  return async (paths: string[]) => {
    const { files: described, problems } = await opened.describe(paths, LIMIT_BYTES);
    expect(problems).toEqual([]);
    await browser.page.waitForFunction(() => 'deliverOpenedFiles' in window);
    await browser.page.evaluate(
      (list) => (window as unknown as { deliverOpenedFiles: (l: unknown) => void }).deliverOpenedFiles(list),
      described.map((f: OpenedFile) => ({ ...f, tail: [...f.tail] })),
    );
  };
}

/** The end of the next processing job of any profile. */
function nextProcessingEnd(): Promise<JobEvent> {
  return new Promise((resolve) => {
    const stop = service.processor.events.subscribe((event) => {
      if (event.type !== 'job' || event.data.kind !== 'processing') return;
      if (event.data.state === 'done' || event.data.state === 'failed') {
        stop();
        resolve(event.data);
      }
    });
  });
}

describe('the page, given files the operating system opened', () => {
  let browser: Browser;
  let openWithApp: (paths: string[]) => Promise<void>;
  /** What the page asked of the service to send a file itself: there must be none. */
  const uploads: string[] = [];

  beforeAll(async () => {
    browser = await openBrowser();
    openWithApp = await withStandInBridge(browser);
    browser.page.on('request', (r) => {
      if (/\/genotype\/upload\/|\/storage\//.test(r.url())) uploads.push(`${r.method()} ${r.url()}`);
    });
    await browser.page.goto(`${service.origin}/`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('makes a profile named from the file and processes the file, stored from disk, not uploaded by the page', async () => {
    const content = personFile({ seed: 35, fillerTraits: 40 });
    const ended = nextProcessingEnd();
    await openWithApp([fileOnDisk('genome_Cleo_Novak_v5_Full_20250101.txt', content)]);
    await browser.page.getByRole('heading', { level: 1, name: 'Cleo Novak' }).waitFor();
    const end = await ended;
    expect(end.state).toBe('done');
    expect((await genotypeOf(end.profile_id)).md5_hash).toBe(md5Base64(content));
    expect(uploads).toEqual([]);
    expect(browser.errors).toEqual([]);
  });

  it('offers to replace the file of a person who has a profile, and replaces it from disk when chosen', async () => {
    const { page } = browser;
    const content = personFile({ seed: 36, fillerTraits: 40 });
    const name = 'genome_Cleo_Novak_v5_Full_20250601.txt';
    const profilesBefore = await api<Profile[]>('GET', '/profiles/');
    const cleo = profilesBefore.find((p) => p.first_name === 'Cleo')!;
    await openWithApp([fileOnDisk(name, content)]);
    const job = page.getByTestId('job-tray').locator('li').filter({ hasText: name });
    await job.getByText('Cleo Novak already has a profile').waitFor();
    await job.getByRole('button', { name: 'New profile' }).waitFor();
    const ended = processingEnd(cleo.id);
    await job.getByRole('button', { name: 'Replace Cleo Novak’s DNA file' }).click();
    expect((await ended).state).toBe('done');
    expect((await genotypeOf(cleo.id)).md5_hash).toBe(md5Base64(content));
    expect((await api<Profile[]>('GET', '/profiles/')).length).toBe(profilesBefore.length);
    expect(uploads).toEqual([]);
    expect(browser.errors).toEqual([]);
  });

  it('shows the main process’s notice that the service moved to another port, until it is dismissed', async () => {
    const { page } = browser;
    // What src/main/port-choice.ts says (test/desktop/port-choice.test.ts checks its words).
    const notice = {
      message: `Traitscope could not use its usual address and runs on ${service.origin} instead`,
      detail: `Tools that connect to Traitscope find the address in ${path.join(root, 'data', 'service.json')}.`,
    };
    await page.waitForFunction(() => 'deliverNotice' in window);
    await page.evaluate((n) => (window as unknown as { deliverNotice: (x: unknown) => void }).deliverNotice(n), {
      title: notice.message,
      detail: notice.detail,
    });
    const banner = page.getByTestId('desktop-notice');
    await expect(banner.getByText(notice.message).textContent()).resolves.toBe(
      `Traitscope could not use its usual address and runs on ${service.origin} instead`,
    );
    await expect(banner.textContent()).resolves.toContain(path.join(root, 'data', 'service.json'));
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner.count()).resolves.toBe(0);
  });
});
