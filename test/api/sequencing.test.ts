/**
 * A sequencing VCF through the real API: a variants-only file is read with its unlisted
 * markers as REF/REF and the summary says so; the person can answer that it lists every
 * site instead (variants_only=false), and the same file is read again that way. A trait
 * missing markers says what about the file kept them out.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  catalogMarkers,
  chipMarkers,
  combine,
  FINDING_CALLS,
  markersOf,
  sequencingVcf,
  twentyThreeAndMe,
  withRelativeSample,
} from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'sequencing tool', { free_traits: 'none' }));
});

describe('a variants-only GRCh38 VCF without rsIDs', () => {
  it('is read with unlisted markers as REF/REF, and read as listed once the person says it lists every site', async () => {
    const text = sequencingVcf(combine([markersOf(FINDING_CALLS), catalogMarkers(11, { fillerTraits: 30 })]), {
      build: 38,
      ids: 'none',
      sites: 'variants_only',
    });
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: 'WGS' } })).body
      .id as string;
    expect((await upload(server, token, id, text)).status).toBe(200);
    const first = (await waitProcessed(server, token, id)).metadata;
    expect(first).toMatchObject({ status: 'processed', format: 'vcf', build: 38, site_reading: 'variants_only' });
    expect(first.site_reading_from).toBe('contents');
    expect(first.matched_by.read_as_reference).toBeGreaterThan(10_000);
    // Listed calls at markers of unknown REF are one-sided: set aside, and counted.
    expect(first.set_aside.unknown_reference).toBeGreaterThan(0);
    expect(first.set_aside.outside_index).toBe(0);
    // rs7412 is not listed (CC, the reference): read as REF/REF.
    const apoe = (await request(`${server.api}/profiles/${id}/genotype/snps/?rsid=rs7412`, { token })).body;
    expect(apoe).toMatchObject([{ rsid: 'rs7412', genotype: 'CC', position: 44908822 }]);
    // A trait missing markers says what about the file kept them out, and which file is read at them.
    const why = async () =>
      (await request(`${server.api}/profiles/${id}/traits/`, { token })).body
        .filter((t: { status_reason?: { code: string } }) => t.status_reason?.code === 'low_coverage')
        .map((t: { status_reason: { detail: string } }) => t.status_reason.detail) as string[];
    const reasons = await why();
    expect(reasons.length).toBeGreaterThan(0);
    for (const detail of reasons) {
      expect(detail).toMatch(/^Only \d+ of this score's \d+ markers/);
      expect(detail).toContain(
        'Your file has no rsIDs, so a marker is read only where Traitscope knows its GRCh38 position',
      );
      expect(detail).toContain('Your file lists only the sites where you differ from the reference genome');
      expect(detail).toMatch(
        /A VCF with rsIDs \(bcftools annotate with dbSNP\) that lists every called site is read at all of them\.$/,
      );
    }

    const bad = await request(`${server.api}/profiles/${id}/genotype/upload/?variants_only=maybe`, {
      method: 'POST',
      token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/variants_only must be true or false/);

    const again = await request(`${server.api}/profiles/${id}/genotype/upload/?variants_only=false`, {
      method: 'POST',
      token,
    });
    expect(again.status).toBe(200);
    const second = (await waitProcessed(server, token, id)).metadata;
    expect(second).toMatchObject({ status: 'processed', site_reading: 'as_listed', site_reading_from: 'person' });
    expect(second.snp_count).toBeLessThan(first.snp_count);
    const asListed = await why();
    expect(asListed.length).toBeGreaterThan(0);
    for (const detail of asListed) {
      expect(detail).toContain('Your file has no rsIDs');
      expect(detail).not.toContain('lists only the sites');
      expect(detail).toMatch(/The same file with rsIDs \(bcftools annotate with dbSNP\) is read at all of them\.$/);
    }
    expect((await request(`${server.api}/profiles/${id}/genotype/snps/?rsid=rs7412`, { token })).body).toEqual([]);
  });
});

describe('a whole-genome VCF after a chip file', () => {
  it('replaces it without asking: the few markers it keeps are what Traitscope can read, not a cut-off file', async () => {
    const id = (
      await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: 'Chip, then WGS' } })
    ).body.id as string;
    expect(
      (await upload(server, token, id, twentyThreeAndMe(chipMarkers(80_000, 17, { internalIds: false })))).status,
    ).toBe(200);
    const chip = (await waitProcessed(server, token, id)).metadata;
    expect(chip.status).toBe('processed');
    const wgs = sequencingVcf(combine([markersOf(FINDING_CALLS), catalogMarkers(12, { fillerTraits: 30 })]), {
      build: 38,
      ids: 'none',
      sites: 'variants_only',
    });
    expect((await upload(server, token, id, wgs)).status).toBe(200);
    const after = (await waitProcessed(server, token, id)).metadata;
    expect(after.needs_confirmation, after.error).not.toBe(true);
    expect(after).toMatchObject({ status: 'processed', format: 'vcf', site_reading: 'variants_only' });
    // Fewer than half the chip file's markers, which from a chip file would be asked about.
    expect(after.snp_count * 2).toBeLessThan(chip.snp_count);
  });
});

describe('a VCF of several people', () => {
  it("reads the first sample until the profile's own is chosen, and refuses a sample the file does not have", async () => {
    // The person's calls as the second sample, after a relative who shares them but for rs429358 (TT, the reference).
    const text = withRelativeSample(
      sequencingVcf(combine([markersOf(FINDING_CALLS), catalogMarkers(11, { fillerTraits: 30 })]), {
        build: 38,
        ids: 'rsid',
      }),
      'rs429358',
    );
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: 'Trio' } })).body
      .id as string;
    const apoe = async () =>
      (await request(`${server.api}/profiles/${id}/genotype/snps/?rsid=rs429358`, { token })).body[0]?.genotype;
    expect((await upload(server, token, id, text)).status).toBe(200);
    const first = (await waitProcessed(server, token, id)).metadata;
    expect(first).toMatchObject({ status: 'processed', vcf_samples: ['relative', 'me'], vcf_sample: 'relative' });
    expect(first.notes.join('\n')).toContain('the first sample, "relative", was read');
    expect(await apoe()).toBe('TT');

    const process = (query: string) =>
      request(`${server.api}/profiles/${id}/genotype/upload/?${query}`, { method: 'POST', token });
    const mine = await process('sample=me');
    expect(mine.status).toBe(200);
    expect((await waitProcessed(server, token, id)).metadata).toMatchObject({ status: 'processed', vcf_sample: 'me' });
    expect(await apoe()).toBe('CT');

    const missing = await process('sample=grandmother');
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toBe(
      'This VCF file has no sample named "grandmother": its 2 samples are "relative", "me". Choose one of them.',
    );
    // Refused before it is stored: the genotype in use, and the file's state, stay as they were.
    expect(await apoe()).toBe('CT');
    expect((await waitProcessed(server, token, id)).metadata).toMatchObject({ status: 'processed', vcf_sample: 'me' });

    const bad = await process(`sample=${encodeURIComponent('me\tyou')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^sample must be the name of one of the VCF's samples/);
  });
});
