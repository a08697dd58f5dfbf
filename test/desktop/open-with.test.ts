/**
 * "Open with Traitscope" without the round trip: the desktop app's main process hosts the
 * service and hands it the path of a file the operating system opened (src/main/open-files.ts
 * calls RunningService.ingestFile, src/service/storage/local-ingest.ts). Here the bundled
 * service (out/main/library.js) runs in this process, as in the main process, on a real data
 * folder: a file on disk is stored and processed as an upload is, with the same size limit,
 * the same plausibility checks for a first file and for a replacement, and nothing changed
 * when it is refused. The page's side (the choice between replacing a profile's file and a
 * new profile) is the same flow as a dropped file: test/e2e/open-with.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenotypeMetadata, Profile } from '../../src/shared/api.js';
import type { JobEvent } from '../../src/shared/events.js';
import type { RunningService } from '../../src/service/index.js';
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
    uiDir: null,
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
