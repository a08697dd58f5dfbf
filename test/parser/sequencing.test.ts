/**
 * Sequencing VCFs in every layout services deliver, built from the same genotypes as a
 * 23andMe file (test/support/genotypes.ts): GRCh37 or GRCh38, with or without rsIDs, all
 * sites, variants only, or a gVCF. They must read as the same person: nearly the same
 * traits, the same percentiles, and every single-variant finding determined.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLELE_LETTERS, findRsid } from '../../src/service/genotype/encoding.js';
import { BUILD_MARKERS, buildFromHeader } from '../../src/service/genotype/parse/build.js';
import { parseChrom } from '../../src/service/genotype/parse/fields.js';
import { parseGenotypeBytes, type ParseOptions } from '../../src/service/genotype/parse/index.js';
import { WHOLE_GENOME_LISTED_SHARE, withoutOneSidedCalls } from '../../src/service/genotype/parse/sites.js';
import { loadKgTable } from '../../src/service/science/kg-table.js';
import { isDrugGeneDefined, rowOfRsid } from '../../src/service/genotype/positions.js';
import type { Genotype, ParseSuccess } from '../../src/service/genotype/types.js';
import { FINDING_GENES, findingsFor } from '../../src/service/science/findings.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import {
  ancestryPanel,
  catalogMarkers,
  catalogTraits,
  combine,
  FINDING_CALLS,
  markersOf,
  panelMarkers,
  positionIndex,
  sequencingVcf,
  sexMarkers,
  twentyThreeAndMe,
  type Marker,
  type SequencingVcfOptions,
} from '../support/genotypes.js';
import { enc, markerRows } from './helpers.js';

const RESOURCES = path.resolve(import.meta.dirname, '..', '..', 'resources');
const withIndex = (extra: ParseOptions = {}): ParseOptions => ({ positionIndex: positionIndex(), ...extra });

async function parsed(text: string, options: ParseOptions = withIndex()): Promise<ParseSuccess> {
  const r = await parseGenotypeBytes(enc(text), options);
  if (!r.ok) throw new Error(`rejected: ${r.reason}`);
  return r;
}

const HEADER = [
  '##fileformat=VCFv4.2',
  '##reference=GRCh38',
  '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
  '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
].join('\n');
const vcf = (...lines: string[]) => `${HEADER}\n${lines.join('\n')}\n`;

describe('the position index', () => {
  it('places the markers of known build positions at the GRCh37 and GRCh38 positions the sources give', () => {
    // BUILD_MARKERS holds GRCh37 positions from 1000 Genomes and GRCh38 ones from the GWAS
    // Catalog: the index lifts one into the other, so both must agree.
    const index = positionIndex();
    let checked = 0;
    for (const m of BUILD_MARKERS) {
      if (m.pos[1] === 0 || m.pos[2] === 0) continue;
      const row = rowOfRsid(index, m.rsid);
      expect(row, `rs${m.rsid}`).toBeGreaterThanOrEqual(0);
      expect([index.chrom[row], index.pos37[row], index.pos38[row]], `rs${m.rsid}`).toEqual([
        m.chrom,
        m.pos[1],
        m.pos[2],
      ]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('states the share of its markers a whole genome lists as variants, as the 1000 Genomes frequencies give it', () => {
    // 1 − (1 − ALT frequency)², averaged over the markers with a known REF, per super-population.
    const index = positionIndex();
    const kg = loadKgTable(RESOURCES);
    const sums = new Array<number>(5).fill(0);
    let n = 0;
    for (let row = 0; row < index.size; row++) {
      const v = index.ref[row] === 0 ? undefined : kg.byRsid(index.rsid[row]);
      if (!v || v.ref.length !== 1 || v.alt.length !== 1 || v.altFreq.some((f) => !Number.isFinite(f))) continue;
      n++;
      v.altFreq.forEach((f, p) => (sums[p] += 1 - (1 - f) ** 2));
    }
    expect(n).toBeGreaterThan(20_000);
    const shares = sums.map((x) => Math.round((x / n) * 100) / 100);
    expect(Math.min(...shares)).toBe(WHOLE_GENOME_LISTED_SHARE.low);
    expect(Math.max(...shares)).toBe(WHOLE_GENOME_LISTED_SHARE.high);
  });

  it('holds every marker Traitscope reads, and the build report counts those it could not place', () => {
    const index = positionIndex();
    const wanted = new Set<number>();
    for (const t of catalogTraits()) for (const r of t.markers.rsid) wanted.add(r);
    for (const r of ancestryPanel().rsid) wanted.add(r);
    for (const ids of Object.values(FINDING_GENES)) for (const id of ids) wanted.add(Number(id.slice(2)));
    expect([...wanted].filter((r) => rowOfRsid(index, r) < 0)).toEqual([]);
    const report = JSON.parse(readFileSync(path.join(RESOURCES, 'catalog', 'build-report.json'), 'utf8')).positions;
    const placed = (pos: Uint32Array) => pos.filter((p) => p > 0).length;
    let neither = 0;
    for (let i = 0; i < index.size; i++) if (index.pos37[i] === 0 && index.pos38[i] === 0) neither++;
    expect(report.markers).toBe(index.size);
    expect([report.placed_grch37, report.placed_grch38]).toEqual([placed(index.pos37), placed(index.pos38)]);
    expect(report.placed_grch37 + report.unplaced.no_source_position + report.unplaced.did_not_lift_to_grch37).toBe(
      index.size,
    );
    expect(neither).toBe(report.unplaced.no_source_position);
  });
});

describe('matching VCF lines by position', () => {
  // rs7412 (APOE): GRCh38 chr19:44908822, REF C, ALT T; rs429358: chr19:44908684, REF T, ALT C.
  it('reads a line without an rsID at a marker position in the header build', async () => {
    const r = await parsed(
      vcf('chr19\t44908684\t.\tT\tC\t50\tPASS\t.\tGT\t0/1', 'chr19\t44908822\t.\tC\tT\t50\tPASS\t.\tGT\t0/0'),
    );
    expect(markerRows(r.genotype)).toEqual(['rs7412 19 44908822 CC', 'rs429358 19 44908684 TC']);
    expect(r.summary.matched_by).toEqual({ rsid: 0, position: 2, read_as_reference: 0 });
    expect(r.summary.build).toBe(38);
    const index = positionIndex();
    const placed = index.pos38.filter((p) => p > 0).length.toLocaleString('en-US');
    expect(r.summary.notes.join('\n')).toContain(
      `Without rsIDs, a line is read only at a marker whose GRCh38 position Traitscope knows: ${placed} of the ${index.size.toLocaleString('en-US')} markers`,
    );
  });

  it('sets aside the calls a variants-only file can list only where the person carries a variant, and says so', async () => {
    // No shipped source gives the REF of rs5498 (chr19:10285007) or rs6859 (chr19:44878777), or
    // any position of rs157877: where the person is REF/REF, a variants-only file leaves them
    // out and they cannot be read, so a listed call there is one-sided.
    const lines = [
      'chr19\t10285007\t.\tA\tG\t50\tPASS\t.\tGT\t0/1',
      'chr19\t44878777\trs6859\tA\tG\t50\tPASS\t.\tGT\t0/1',
      'chr19\t44908684\trs429358\tT\tC\t50\tPASS\t.\tGT\t0/1',
      'chr19\t45000000\trs157877\tC\tT\t50\tPASS\t.\tGT\t1/1',
      // An rsID Traitscope does not use: no REF known either, and an imported score would read it.
      'chr19\t45000100\trs7413\tG\tA\t50\tPASS\t.\tGT\t0/1',
    ];
    const oneSided = (rows: string[]) => rows.filter((row) => /^rs(5498|6859|157877|7413) /.test(row));
    const variantsOnly = await parsed(vcf(...lines), withIndex({ variantsOnly: true }));
    expect(markerRows(variantsOnly.genotype)).toContain('rs429358 19 44908684 TC');
    expect(oneSided(markerRows(variantsOnly.genotype))).toEqual([]);
    expect(variantsOnly.summary.notes.join('\n')).toMatch(
      /^3 calls at markers whose reference allele Traitscope does not know in GRCh38 were set aside/m,
    );
    expect(variantsOnly.summary.notes.join('\n')).toMatch(/^1 call at a site no built-in result uses was not kept/m);
    expect(variantsOnly.summary.set_aside).toEqual({ unknown_reference: 3, outside_index: 1 });
    const asListed = await parsed(vcf(...lines), withIndex({ variantsOnly: false }));
    expect(oneSided(markerRows(asListed.genotype))).toHaveLength(4);
    expect(asListed.summary.notes.join('\n')).not.toMatch(/set aside|not kept/);
    expect(asListed.summary.set_aside).toEqual({ unknown_reference: 0, outside_index: 0 });
    // Nothing to set aside: no such note, and the confirmed reading's own note stands.
    const clean = await parsed(vcf(lines[2]), withIndex({ variantsOnly: true }));
    expect(clean.summary.notes.join('\n')).not.toMatch(/set aside|only the sites this VCF lists were read/);
  });

  it('refuses a variants-only file whose every call is one-sided, saying why and what to do', async () => {
    // No marker of the index sits on the mitochondrial chromosome: nothing there is read as
    // REF/REF, and the listed variants alone would be one-sided.
    const lines = [
      'chrM\t150\trs999999999\tC\tT\t50\tPASS\t.\tGT\t1',
      'chrM\t152\trs999999998\tT\tC\t50\tPASS\t.\tGT\t1',
    ];
    const refused = await parseGenotypeBytes(enc(vcf(...lines)), withIndex({ variantsOnly: true }));
    expect(refused.ok ? 'read' : refused.reason).toMatch(
      /^None of this file's 2 calls could be kept: the file was read as listing only the sites where you differ from the reference genome.*process it again with variants_only=false\.$/,
    );
    const one = await parseGenotypeBytes(enc(vcf(lines[0])), withIndex({ variantsOnly: true }));
    expect(one.ok ? 'read' : one.reason).toMatch(/^This file's one call could not be kept/);
    expect((await parsed(vcf(...lines), withIndex({ variantsOnly: false }))).genotype.rsids.length).toBe(2);
  });

  it('sets one-sided calls aside from a genotype of millions of markers in place, keeping the others in order', () => {
    // rs5498, rs6859 (no REF) and rs157877 (no position) are one-sided markers; rs1, rs7413
    // and rs999999999 are rsIDs Traitscope does not use, no REF known: one-sided too, and a
    // score imported later would be matched to them. rs7412 and rs429358 are kept.
    const rsids = [1, 5498, 6859, 7412, 7413, 157877, 429358, 999_999_999];
    const genotype = {
      rsids: Uint32Array.from(rsids),
      calls: Uint8Array.from(rsids, (_, i) => 0x11 + i),
      chroms: Uint8Array.from(rsids, (_, i) => 1 + i),
      positions: Uint32Array.from(rsids, (_, i) => 100 + i),
    };
    const index = positionIndex();
    for (const id of [1, 7413, 999_999_999]) expect(index.rsid.includes(id)).toBe(false);
    const { genotype: kept, setAside, outsideIndex } = withoutOneSidedCalls(genotype, index, 38);
    expect([setAside, outsideIndex]).toEqual([3, 3]);
    expect([...kept.rsids]).toEqual([7412, 429358]);
    expect([...kept.calls]).toEqual([0x14, 0x17]);
    expect([...kept.chroms]).toEqual([4, 7]);
    expect([...kept.positions]).toEqual([103, 106]);
  });

  it('reads RefSeq contig names (NC_000019.10) as their chromosomes', async () => {
    const r = await parsed(
      vcf(
        'NC_000019.10\t44908684\t.\tT\tC\t50\tPASS\t.\tGT\t0/1',
        'NC_000019.10\t44908822\t.\tC\tT\t50\tPASS\t.\tGT\t0/0',
        'NT_187361.1\t100\t.\tA\tG\t50\tPASS\t.\tGT\t0/1',
      ),
    );
    expect(markerRows(r.genotype)).toEqual(['rs7412 19 44908822 CC', 'rs429358 19 44908684 TC']);
  });

  it.each([
    ['NC_000001.11', 1],
    ['NC_000023.11', 23],
    ['NC_000024.10', 24],
    ['NC_012920.1', 26],
    ['NC_000025.1', -1],
    ['NC_000001', -1],
    ['NT_187361.1', -1],
  ])('reads the contig %s as chromosome code %i', (name, code) => {
    expect(parseChrom(enc(name), 0, name.length)).toBe(code);
  });

  it('does not read a line whose REF is not the expected one, and says so', async () => {
    const r = await parsed(
      vcf('chr19\t44908684\t.\tT\tC\t50\tPASS\t.\tGT\t0/1', 'chr19\t44908822\t.\tG\tA\t50\tPASS\t.\tGT\t0/1'),
    );
    expect(markerRows(r.genotype)).toEqual(['rs429358 19 44908684 TC']);
    expect(r.summary.notes.join('\n')).toMatch(
      /1 line sits at a marker's GRCh38 position but names another reference allele; it was not used/,
    );
  });

  it("reads a line of the marker's own rsID by it whatever its REF, without calling it a mismatch", async () => {
    // PLINK's --recode vcf, with no reference genome, names the person's allele as REF.
    const r = await parsed(
      vcf('chr19\t44908684\trs429358\tC\tT\t.\t.\t.\tGT\t0/1', 'chr19\t44908822\trs7412\tT\t.\t.\t.\t.\tGT\t0/0'),
    );
    expect(markerRows(r.genotype)).toEqual(['rs7412 19 44908822 TT', 'rs429358 19 44908684 CT']);
    expect(r.summary.notes.join('\n')).not.toMatch(/another reference allele/);
  });

  it('splits a multi-allelic record into the called single-base alleles, and never reads an indel as a SNP', async () => {
    const r = await parsed(
      vcf('chr19\t44908684\t.\tT\tC,G\t50\tPASS\t.\tGT\t1/2', 'chr19\t44908822\t.\tC\tCAT\t50\tPASS\t.\tGT\t0/1'),
    );
    expect(markerRows(r.genotype)).toEqual(['rs429358 19 44908684 CG']);
  });

  describe('a multi-allelic site written one ALT a line (bcftools norm -m-)', () => {
    // As bcftools 1.16 `norm -m-` writes them: 1/2 at REF T, ALT C,G becomes T>C 1/0 and T>G 0/1;
    // 2/2 at REF C, ALT T,A becomes C>T 0/0 and C>A 1/1. Each line alone names a wrong genotype.
    const split = (id429358: string, id7412: string, format = 'GT', sample = (gt: string) => gt) => [
      `chr19\t44908684\t${id429358}\tT\tC\t50\tPASS\t.\t${format}\t${sample('1/0')}`,
      `chr19\t44908684\t${id429358}\tT\tG\t50\tPASS\t.\t${format}\t${sample('0/1')}`,
      `chr19\t44908822\t${id7412}\tC\tT\t50\tPASS\t.\t${format}\t${sample('0/0')}`,
      `chr19\t44908822\t${id7412}\tC\tA\t50\tPASS\t.\t${format}\t${sample('1/1')}`,
    ];
    const merged = ['rs7412 19 44908822 AA', 'rs429358 19 44908684 CG'];
    const note = '2 lines were read together with the line before at the same site and reference allele';

    it('reads the lines of one site together, by position and by rsID', async () => {
      for (const [label, lines] of [
        ['no rsIDs', split('.', '.')],
        ['rsIDs', split('rs429358', 'rs7412')],
        ['rsIDs, GT not first in FORMAT', split('rs429358', 'rs7412', 'GQ:GT', (gt) => `40:${gt}`)],
        ['no rsIDs, GT not first in FORMAT', split('.', '.', 'GQ:GT', (gt) => `40:${gt}`)],
      ] as const) {
        const r = await parsed(vcf(...lines));
        expect(markerRows(r.genotype), label).toEqual(merged);
        const notes = r.summary.notes.join('\n');
        expect(notes, label).toContain(note);
        expect(notes, label).not.toMatch(/duplicate|more than once with different calls/);
      }
    });

    it('keeps the first call of lines that cannot be one site: the same ALT twice, or more ALTs than copies', async () => {
      const r = await parsed(
        vcf(
          'chr19\t44908684\trs429358\tT\tC\t50\tPASS\t.\tGT\t0/1',
          'chr19\t44908684\trs429358\tT\tC\t50\tPASS\t.\tGT\t1/1',
          'chr19\t44908822\trs7412\tC\tT\t50\tPASS\t.\tGT\t1/1',
          'chr19\t44908822\trs7412\tC\tA\t50\tPASS\t.\tGT\t0/1',
        ),
      );
      expect(markerRows(r.genotype)).toEqual(['rs7412 19 44908822 TT', 'rs429358 19 44908684 TC']);
      expect(r.summary.notes.join('\n')).toContain('2 rsIDs appeared more than once with different calls');
      expect(r.summary.notes.join('\n')).not.toContain('read together');
    });
  });

  it('tells the build from the positions of known markers when the header names none', async () => {
    const markers = combine([markersOf(FINDING_CALLS), catalogMarkers(3, { fillerTraits: 50 })]);
    const r = await parsed(sequencingVcf(markers, { build: 37, ids: 'none', headerBuild: false }));
    expect(r.summary.build).toBe(37);
    expect(r.summary.build_source).toBe('positions');
    expect(r.summary.matched_by!.position).toBeGreaterThan(1000);
  });

  it.each([
    ['##contig=<ID=chr1,length=248956422,assembly=hg38>', 38],
    ['##contig=<ID=1,length=249250621>', 37],
    ['##contig=<ID=NC_000001.11,length=248956422>', 38],
    ['##reference=file:///ref/hs37d5.fa', 37],
    ['##reference=file:///ref/Homo_sapiens_assembly38.fasta', 38],
    ['##reference=file:///ref/Homo_sapiens_assembly19.fasta', 37],
    ['##reference=GRCh38', 38],
    ['##reference=file:///ref/hg19.fa\n##targetRefGenome=/ref/hg38.fa', 38],
    ['##reference=file:///ref/hg19.fa\n##liftOverChainFile=/chains/hg19ToHg38.over.chain.gz', 38],
    ['##reference=GRCh37\n##contig=<ID=chr1,length=248956422>', 38],
    ['##source=HaplotypeCaller', null],
  ])('names the build of %j as %s', (header, build) => {
    expect(buildFromHeader(header)).toBe(build);
  });

  describe('a header naming another build than the positions are in', () => {
    const markers = combine([markersOf(FINDING_CALLS), catalogMarkers(3, { fillerTraits: 50 })]);
    /** The file with `lines` put into its header, after ##fileformat. */
    const withHeader = (text: string, ...lines: string[]) => text.replace('\n', `\n${lines.join('\n')}\n`);

    it.each([
      { build: 38 as const, stale: ['##reference=file:///genomes/hg19.fa', '##contig=<ID=chr1,length=249250621>'] },
      { build: 37 as const, stale: ['##reference=GRCh38'] },
    ])(
      'reads a variants-only GRCh$build VCF without rsIDs in its own build, and says the header was overruled',
      async ({ build, stale }) => {
        const text = sequencingVcf(markers, { build, ids: 'none', sites: 'variants_only', headerBuild: false });
        const right = await parsed(withHeader(text, `##reference=GRCh${build}`));
        const wrong = await parsed(withHeader(text, ...stale));
        expect(wrong.summary.build).toBe(build);
        expect(wrong.summary.build_source).toBe('positions');
        expect(wrong.summary.notes.join('\n')).toContain(`the positions in the file are build ${build}`);
        expect(markerRows(wrong.genotype)).toEqual(markerRows(right.genotype));
        expect(wrong.summary.matched_by).toEqual(right.summary.matched_by);
      },
    );

    it('takes the target build of a liftover from the header (CrossMap keeps the original ##reference)', async () => {
      const text = sequencingVcf(markers, { build: 38, ids: 'none', sites: 'variants_only', headerBuild: false });
      const lifted = withHeader(
        text,
        '##reference=file:///genomes/hg19.fa',
        '##liftOverProgram=CrossMap,version=0.7.0',
        '##liftOverChainFile=/chains/hg19ToHg38.over.chain.gz',
        '##targetRefGenome=/genomes/hg38.fa',
      );
      const r = await parsed(lifted);
      expect(r.summary.build).toBe(38);
      expect(r.summary.build_source).toBe('header');
      expect(r.summary.matched_by!.position).toBeGreaterThan(100);
    });
  });

  it('refuses a VCF without rsIDs whose positions are no marker, saying why and what to do', async () => {
    const r = await parseGenotypeBytes(enc(vcf('chr1\t10\t.\tA\tG\t50\tPASS\t.\tGT\t0/1')), withIndex());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(
      /no rsIDs, and none of their positions is one of the markers.*Export the VCF with rsIDs/,
    );
  });
});

describe('variants-only VCFs and gVCFs', () => {
  const markers = combine([markersOf(FINDING_CALLS), catalogMarkers(5, { fillerTraits: 100 })]);

  it('reads the unlisted markers of a variants-only VCF as REF/REF and says so', async () => {
    const r = await parsed(sequencingVcf(markers, { sites: 'variants_only', ids: 'none' }));
    expect(r.summary.site_reading).toBe('variants_only');
    expect(r.summary.site_reading_from).toBe('contents');
    expect(r.summary.matched_by!.read_as_reference).toBeGreaterThan(10_000);
    expect(r.summary.notes.join('\n')).toMatch(
      /lists only the sites where you differ.*read as homozygous for the reference/,
    );
    // rs7412 is CC, the GRCh38 reference (C): unlisted, read as REF/REF.
    const i = findRsid(r.genotype.rsids, 7412);
    expect(markerRows(r.genotype)[i]).toBe('rs7412 19 44908822 CC');
  });

  it('says when a variants-only file lists too few markers to be a whole genome', async () => {
    const genome = sequencingVcf(catalogMarkers(9, { traits: 'all' }), { sites: 'variants_only', ids: 'none' });
    const whole = await parsed(genome);
    expect(whole.summary.site_reading).toBe('variants_only');
    expect(whole.summary.notes.join('\n')).not.toMatch(/not a whole genome/);
    // As the person confirmed it, the same reading, said so.
    const saidVariants = await parsed(genome, withIndex({ variantsOnly: true }));
    expect(saidVariants.summary.site_reading_from).toBe('person');
    expect(saidVariants.summary.notes.join('\n')).toMatch(/lists only the sites where you differ.*, as you confirmed/);
    expect(saidVariants.summary.notes.join('\n')).not.toMatch(/only the sites this VCF lists were read/);
    // An exome's worth: one variant line in fifteen.
    const lines = genome.split('\n');
    const part = await parsed(lines.filter((l, i) => l.startsWith('#') || i % 15 === 0).join('\n') + '\n');
    expect(part.summary.site_reading).toBe('variants_only');
    expect(part.summary.notes.join('\n')).toMatch(
      /lines at only \d %.*whole genome lists 42–47 %.*If your file is not a whole genome, process it again with variants_only=false/,
    );
  });

  it('follows the person: a file they say lists every site is read as listed', async () => {
    const text = sequencingVcf(markers, { sites: 'variants_only', ids: 'none' });
    const asListed = await parsed(text, withIndex({ variantsOnly: false }));
    expect(asListed.summary.site_reading).toBe('as_listed');
    expect(asListed.summary.site_reading_from).toBe('person');
    expect(asListed.summary.matched_by!.read_as_reference).toBe(0);
    expect(findRsid(asListed.genotype.rsids, 7412)).toBe(-1);
    // An all-sites file is read as listed unless the person says otherwise.
    const all = await parsed(sequencingVcf(markers, { sites: 'all', ids: 'none' }));
    expect(all.summary.site_reading).toBe('as_listed');
  });

  it("reads a VCF that also lists the reference calls its caller weighed (DeepVariant's RefCall) as variants only", async () => {
    // DeepVariant writes the candidate sites it called REF/REF as lines too (FILTER RefCall):
    // here one beside each variant line, and 5 % of the REF/REF markers.
    const all = sequencingVcf(markers, { sites: 'all', ids: 'none' }).split('\n');
    const header = all.filter((l) => l.startsWith('#'));
    const data = all.filter((l) => l !== '' && !l.startsWith('#'));
    const homRef = (l: string) => l.endsWith('\t0/0:30');
    const lines: string[] = [];
    let k = 0;
    for (const l of data) {
      const f = l.split('\t');
      if (!homRef(l)) {
        lines.push(l, [f[0], Number(f[1]) + 2, '.', 'A', 'C', '0', 'RefCall', '.', 'GT:DP', '0/0:30'].join('\t'));
      } else if (k++ % 20 === 0) lines.push(l.replace('\tPASS\t', '\tRefCall\t'));
    }
    const r = await parsed([...header, ...lines].join('\n') + '\n');
    // Half the file's calls are REF/REF: the share of the whole file does not tell it.
    expect(r.summary.notes.join('\n')).toMatch(/\(([\d,]+) reference calls in all/);
    const plain = await parsed(sequencingVcf(markers, { sites: 'variants_only', ids: 'none' }));
    expect(r.summary.site_reading).toBe('variants_only');
    expect(r.summary.site_reading_from).toBe('contents');
    expect(r.summary.notes.join('\n')).toMatch(
      /at the markers' positions it has [\d,]+ variant calls and [\d,]+ reference calls/,
    );
    // The same markers and calls, and the few REF/REF lines at markers of no known REF besides.
    const rows = new Set(markerRows(r.genotype));
    expect(markerRows(plain.genotype).filter((row) => !rows.has(row))).toEqual([]);
    expect(rows.size - plain.genotype.rsids.length).toBeLessThan(10);
  });

  it("reads Strelka's reference blocks, which have no ALT, over INFO's END", async () => {
    const gatk = sequencingVcf(markers, { sites: 'gvcf', ids: 'none' });
    // Illumina's Strelka and Isaac: no <NON_REF> allele; a block is a record without ALT and an END.
    const strelka = gatk
      .split('\n')
      .filter((l) => !l.startsWith('##ALT=<ID=NON_REF'))
      .map((l) =>
        l.startsWith('##fileformat')
          ? `${l}\n##INFO=<ID=END,Number=1,Type=Integer,Description="End position of the region described in this record">`
          : l.replace('\t<NON_REF>\t', '\t.\t').replace(',<NON_REF>\t', '\t'),
      )
      .join('\n');
    expect(strelka).not.toContain('NON_REF');
    const read = await parsed(strelka);
    const expected = await parsed(gatk);
    expect(read.summary.site_reading).toBe('reference_blocks');
    expect(read.summary.matched_by).toEqual(expected.summary.matched_by);
    expect(markerRows(read.genotype)).toEqual(markerRows(expected.genotype));
  });

  it('refuses a gVCF with more text than it reads as a gVCF, saying which file to upload instead', async () => {
    // Blocks over chromosome 1, past the first mebibyte inflated: the file has been read as a
    // gVCF when the limit is reached.
    const header = sequencingVcf(markers, { sites: 'gvcf', ids: 'none' })
      .split('\n')
      .filter((l) => l.startsWith('#'));
    const blocks = Array.from({ length: 80_000 }, (_, i) => {
      const pos = 10_000 + 10 * i;
      return `chr1\t${pos}\t.\tA\t<NON_REF>\t.\t.\tEND=${pos + 9}\tGT:DP\t0/0:30`;
    });
    const gvcf = enc([...header, ...blocks].join('\n') + '\n');
    expect(gvcf.length).toBeGreaterThan(3 << 20);
    const r = await parseGenotypeBytes(gzipSync(gvcf), withIndex({ maxDecompressedBytes: 2 << 20 }));
    expect(r.ok ? 'read' : r.reason).toMatch(
      /^This gVCF holds more than 2 MiB of text.*Upload the VCF of your variants instead/,
    );
  });

  it('reads the markers inside a gVCF reference block as REF/REF', async () => {
    const r = await parsed(
      [
        '##fileformat=VCFv4.2',
        '##ALT=<ID=NON_REF,Description="Represents any possible alternative allele">',
        '##contig=<ID=chr1,length=248956422>',
        HEADER.split('\n').pop(),
        'chr19\t44900000\t.\tA\t<NON_REF>\t.\t.\tEND=44908800\tGT:DP\t0/0:31',
        'chr19\t44908822\t.\tC\tT,<NON_REF>\t50\tPASS\t.\tGT:DP\t0/1:28',
      ].join('\n') + '\n',
    );
    expect(r.summary.site_reading).toBe('reference_blocks');
    const rows = markerRows(r.genotype);
    expect(rows).toContain('rs7412 19 44908822 CT');
    expect(rows).toContain('rs429358 19 44908684 TT'); // inside the block
    expect(rows.every((row) => Number(row.split(' ')[2]) >= 44900000)).toBe(true); // nothing before it
  });
});

describe('one genome in every layout', () => {
  const engine = createScienceEngine({ resourcesDir: RESOURCES });
  const markers = combine([
    markersOf(FINDING_CALLS),
    catalogMarkers(7, { population: 'EUR', fillerTraits: 400, positions: 'panel' }),
    panelMarkers(7, { population: 'EUR' }),
    sexMarkers('female'),
  ]);
  const context = { ethnicity: 1, gender: 2 as const, mixture: null, ancestry: null, inferredSex: null };
  /** The traits all of whose markers the test person's data hold. */
  const held = new Set(markers.map((m) => m.rsid));
  const whole = new Set(catalogTraits().flatMap((t) => (t.markers.rsid.every((rs) => held.has(rs)) ? [t.code] : [])));

  /**
   * Percentiles and findings of a genotype: of every trait, or of the traits `codes` names
   * (each trait is assessed on its own, so its result does not depend on which others are).
   */
  function results(g: Genotype, codes?: Iterable<string>): { percentiles: Map<string, number>; findings: string[] } {
    const percentiles = new Map<string, number>();
    for (const [code, o] of engine.assessMany(g, context, codes, { details: false }))
      if (o.status === 'computed' && o.assessment.percentile !== null) percentiles.set(code, o.assessment.percentile);
    const findings = findingsFor((rs) => {
      const i = findRsid(g.rsids, rs);
      return i < 0 ? undefined : g.calls[i];
    }).map((f) => f.status);
    return { percentiles, findings };
  }

  let chipResults: ReturnType<typeof results> | undefined;
  const layouts: Array<{ name: string; options: SequencingVcfOptions }> = [
    { name: 'GRCh38, rsIDs, all sites', options: { build: 38, ids: 'rsid', sites: 'all' } },
    { name: 'GRCh38, no rsIDs, all sites', options: { build: 38, ids: 'none', sites: 'all' } },
    { name: 'GRCh38, rsIDs, variants only', options: { build: 38, ids: 'rsid', sites: 'variants_only' } },
    { name: 'GRCh38, no rsIDs, variants only', options: { build: 38, ids: 'none', sites: 'variants_only' } },
    { name: 'GRCh38, no rsIDs, gVCF', options: { build: 38, ids: 'none', sites: 'gvcf' } },
    { name: 'GRCh37, no rsIDs, variants only', options: { build: 37, ids: 'none', sites: 'variants_only' } },
  ];

  /**
   * Whether a layout can carry a marker's call at all: a line without an rsID is read only at
   * a position the index knows, and a site a variants-only file or a gVCF block leaves out
   * is read as REF/REF only where the index knows the REF, and a listed call elsewhere is
   * set aside (no shipped source places most markers of GWAS Catalog studies after 2017, or
   * gives the REF of some placed ones).
   */
  function carried(o: SequencingVcfOptions): (m: Marker) => boolean {
    const index = positionIndex();
    return (m) => {
      const row = rowOfRsid(index, m.rsid);
      const pos = row < 0 ? 0 : o.build === 37 ? index.pos37[row] : index.pos38[row];
      if (o.ids === 'none' && pos === 0) return false;
      if (o.sites === 'all' || m.genotype === '--') return true;
      return (pos > 0 && index.ref[row] !== 0) || (row >= 0 && isDrugGeneDefined(index, row));
    };
  }

  it.each(layouts)(
    '$name: every trait its markers support, percentiles within a median 0.5 of the 23andMe file, all five findings',
    async ({ options }) => {
      const chip = (chipResults ??= results((await parsed(twentyThreeAndMe(markers, 'full'))).genotype));
      expect(chip.percentiles.size).toBeGreaterThan(500);
      // The traits computed from only the markers this layout can carry, listed with rsIDs
      // at every site (the same forward-strand letters as the layout).
      const only = sequencingVcf(markers.filter(carried(options)), { build: options.build, ids: 'rsid', sites: 'all' });
      const supported = results((await parsed(only)).genotype, chip.percentiles.keys()).percentiles;
      const seq = await parsed(sequencingVcf(markers, options));
      expect(seq.summary.build).toBe(options.build);
      const got = results(seq.genotype, chip.percentiles.keys());
      expect([...supported.keys()].filter((code) => !got.percentiles.has(code))).toEqual([]);
      // A trait all of whose markers the person's data hold is read exactly as from those
      // markers with rsIDs (a marker the test genome lacks would be REF/REF in a variants-only
      // layout, as in a whole genome).
      const differing = [...got.percentiles].filter(
        ([code, p]) => whole.has(code) && Math.abs(p - (supported.get(code) ?? NaN)) > 1e-9,
      );
      expect(differing).toEqual([]);
      expect([...got.percentiles.keys()].filter((code) => whole.has(code)).length).toBeGreaterThan(150);
      const shifts = [...got.percentiles].map(([code, p]) => Math.abs(p - chip.percentiles.get(code)!));
      shifts.sort((a, b) => a - b);
      expect(shifts[shifts.length >> 1]).toBeLessThanOrEqual(0.5);
      expect(got.findings).toEqual(Array(5).fill('determined'));
      // Of every trait the 23andMe file computes: all from rsIDs listing every site; without
      // rsIDs, or listing variants only, far fewer (docs/file-formats.md gives the shares).
      const share = got.percentiles.size / chip.percentiles.size;
      if (options.ids === 'rsid' && options.sites === 'all') {
        expect(share).toBe(1);
        // The same genotypes, on the forward strand in both files: the same percentiles.
        expect(shifts[shifts.length - 1]).toBe(0);
      }
    },
  );

  it.each(layouts.filter((l) => l.options.sites !== 'all'))(
    '$name: every finding determined for a person homozygous for the reference at every finding marker',
    async ({ options }) => {
      // Most people are REF/REF at most finding markers (lactase rs4988235 GG in most of the
      // world), and a variants-only file leaves those lines out: each needs its REF.
      const index = positionIndex();
      const reference = Object.values(FINDING_GENES)
        .flat()
        .map((id): [string, string] => {
          const ref = index.ref[rowOfRsid(index, Number(id.slice(2)))];
          expect(ref, `${id}: REF in the position index`).not.toBe(0);
          return [id, ALLELE_LETTERS[ref].repeat(2)];
        });
      const seq = await parsed(sequencingVcf(combine([markersOf(reference), markers]), options));
      expect(results(seq.genotype, []).findings).toEqual(Array(5).fill('determined'));
      expect(markerRows(seq.genotype)).toContain(
        'rs4988235 2 ' + (options.build === 37 ? 136608646 : 135851076) + ' GG',
      );
    },
  );
});
