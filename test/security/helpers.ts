/** Shared pieces of the security tests: a scored profile to delete, and a byte scan of a data folder. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { catalogMarkers, twentyThreeAndMe, type Marker } from '../support/genotypes.js';
import { request, upload, waitProcessed, type TestServer } from '../support/server.js';

export interface Needle {
  label: string;
  bytes: Buffer;
}

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** The needles found anywhere in the bytes of the folder's files, as "label in file". */
export function scanFolder(dir: string, needles: Needle[]): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = readFileSync(file);
    for (const n of needles) if (bytes.includes(n.bytes)) found.push(`${n.label} in ${path.relative(dir, file)}`);
  }
  return found;
}

/** The labels of the needles found somewhere in the folder. */
export function labelsFound(dir: string, needles: Needle[]): string[] {
  const found = new Set(scanFolder(dir, needles).map((f) => f.slice(0, f.lastIndexOf(' in '))));
  return needles.map((n) => n.label).filter((l) => found.has(l));
}

/** The parsed genotype's rsID column as stored (little-endian uint32), a window of it. */
function rsidBlobWindow(markers: Marker[], from: number, count: number): Buffer {
  const ids = markers
    .map((m) => m.rsid)
    .sort((a, b) => a - b)
    .slice(from, from + count);
  const b = Buffer.alloc(ids.length * 4);
  ids.forEach((id, i) => b.writeUInt32LE(id, i * 4));
  return b;
}

/**
 * A profile of the given client with a distinctive name, a processed genotype and every
 * available trait computed; returns what must be gone once it is deleted.
 */
export async function scoredProfile(
  server: TestServer,
  token: string,
  name: { first: string; last: string },
  seed: number,
): Promise<{ id: string; needles: Needle[] }> {
  const id = (
    await request(`${server.api}/profiles/`, {
      method: 'POST',
      token,
      json: { first_name: name.first, last_name: name.last },
    })
  ).body.id as string;
  const markers = catalogMarkers(seed);
  const text = twentyThreeAndMe(markers);
  if ((await upload(server, token, id, text)).status !== 200) throw new Error('upload failed');
  const meta = await waitProcessed(server, token, id);
  if (meta.metadata.status !== 'processed')
    throw new Error(`processing failed: ${meta.metadata.error}\n${server.output()}`);
  const traits = (await request(`${server.api}/profiles/${id}/traits/`, { token })).body as Array<{
    trait: { code: string };
    status: string;
  }>;
  // A dozen traits are enough to store result texts and per-marker tables.
  const codes = traits
    .filter((t) => t.status === 'available')
    .map((t) => t.trait.code)
    .slice(0, 12);
  await request(`${server.api}/profiles/${id}/traits/`, { method: 'POST', token, json: codes });
  const scored = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body as Array<{
    snps: string[];
    recommendations: string;
    percentile: number;
  }>;
  if (scored.length === 0) throw new Error('nothing was computed');
  const withText = scored.find((t) => t.recommendations.length >= 40)!;
  const lines = text.split('\n').filter((l) => l.startsWith('rs'));
  return {
    id,
    needles: [
      { label: 'first name', bytes: Buffer.from(name.first) },
      { label: 'last name', bytes: Buffer.from(name.last) },
      { label: 'result text', bytes: Buffer.from(withText.recommendations.slice(0, 40)) },
      ...scored.slice(0, 3).map((t, i) => ({ label: `rsID ${i}`, bytes: Buffer.from(`"${t.snps[0]}"`) })),
      { label: 'genotype file lines', bytes: Buffer.from(lines.slice(10, 13).join('\n')) },
      { label: 'genotype rsID column', bytes: rsidBlobWindow(markers, 10, 8) },
    ],
  };
}
