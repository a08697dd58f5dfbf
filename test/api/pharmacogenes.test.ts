/** GET /api/profiles/{id}/pharmacogenes/ through the real service: 409 before processing, then one result per gene. */
import { beforeAll, describe, expect, it } from 'vitest';
import { PharmacogeneList } from '../../src/shared/api.js';
import { twentyThreeAndMe, type Marker } from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;

/** CYP2C19 *1/*2 as a chip shows it (rs4244285 het, rs3758581 G/G, its other positions reference), GRCh37. */
const MARKERS: Marker[] = [
  { rsid: 12248560, chrom: 10, pos: 96521657, genotype: 'CC' },
  { rsid: 4244285, chrom: 10, pos: 96541616, genotype: 'AG' },
  { rsid: 4986893, chrom: 10, pos: 96540410, genotype: 'GG' },
  { rsid: 3758581, chrom: 10, pos: 96602623, genotype: 'GG' },
  { rsid: 9923231, chrom: 16, pos: 31107689, genotype: 'CT' },
];

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'drug–gene reader', { scopes: ['read:profiles', 'write:profiles'] }));
});

describe('drug–gene results over HTTP', () => {
  it('answers 409 while the profile has no processed genotype, saying what to do', async () => {
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    const r = await request(`${server.api}/profiles/${id}/pharmacogenes/`, { token });
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/Upload a file/);
  });

  it('answers one result per gene in the documented shape, never calling what the file lacks', async () => {
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    await upload(server, token, id, twentyThreeAndMe(MARKERS, 'full'));
    expect((await waitProcessed(server, token, id)).metadata.status).toBe('processed');
    const r = await request(`${server.api}/profiles/${id}/pharmacogenes/`, { token });
    expect(r.status).toBe(200);
    const list = PharmacogeneList.parse(r.body);
    const byGene = new Map(list.map((g) => [g.gene, g]));
    expect(byGene.size).toBe(16);
    // Only 4 of CYP2C19's 35 positions read: *1/*2 fits, but so do alleles the file cannot see.
    const c19 = byGene.get('CYP2C19')!;
    expect(c19.status).toBe('ambiguous');
    expect(c19.diplotype).toBeNull();
    expect(c19.candidates).toContain('*1/*2');
    expect(c19.positions.read.map((p) => p.rsid)).toEqual(
      expect.arrayContaining(['rs12248560', 'rs4244285', 'rs4986893', 'rs3758581']),
    );
    expect(c19.positions.missing.length).toBe(31);
    const vkorc1 = byGene.get('VKORC1')!;
    expect([vkorc1.status, vkorc1.phenotype]).toEqual(['called', '-1639 AG']);
    expect(vkorc1.medicines.map((m) => [m.medicine, m.pmid])).toEqual([['warfarin', '28198005']]);
    expect(byGene.get('TPMT')!.status).toBe('not_tested');
    expect(byGene.get('CYP2D6')!.status).toBe('not_determinable');
    for (const g of list) expect(g.versions.definitions).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });

  it('calls UGT1A1 *28/*28 from a GRCh38 VCF without rsIDs, with the CPIC medicine', async () => {
    // PharmCAT's GRCh38 UGT1A1 positions: the TA repeat's (TA)7 twice, REF at the *80, *6 and *27 SNPs.
    const record = (pos: number, ref: string, alt: string, gt: string) =>
      `chr2\t${pos}\t.\t${ref}\t${alt}\t50\tPASS\t.\tGT\t${gt}`;
    const vcf = [
      '##fileformat=VCFv4.2',
      '##reference=GRCh38',
      '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
      record(233759924, 'C', 'T', '0/0'),
      record(233760233, 'CAT', 'C,CATAT', '2/2'),
      record(233760498, 'G', 'A', '0/0'),
      record(233760973, 'C', 'A', '0/0'),
      '',
    ].join('\n');
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    await upload(server, token, id, vcf);
    expect((await waitProcessed(server, token, id)).metadata.status).toBe('processed');
    const list = PharmacogeneList.parse((await request(`${server.api}/profiles/${id}/pharmacogenes/`, { token })).body);
    const ugt1a1 = list.find((g) => g.gene === 'UGT1A1')!;
    expect([ugt1a1.status, ugt1a1.diplotype, ugt1a1.phenotype]).toEqual(['called', '*28/*28', 'Poor Metabolizer']);
    expect(ugt1a1.positions.read.find((p) => p.rsid === 'rs3064744')!.genotype).toBe('CATAT/CATAT');
    expect(ugt1a1.medicines.map((m) => [m.medicine, m.pmid])).toEqual([['atazanavir', '26417955']]);
  });
});
