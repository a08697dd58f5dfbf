/**
 * VCF indels read at the position index's indel markers by normalised alleles
 * (docs/file-formats.md, "Indels"), with VCFs built for the purpose at PharmCAT's own
 * NUDT15 positions: one genotype written the ways callers write it must give one drug–gene
 * call, and another indel (or a SNV) at the same site must not be read as the marker.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callToString, findRsid } from '../../src/service/genotype/encoding.js';
import { INDEL_LOOKBEHIND, readIndelRecord, trimAlleles } from '../../src/service/genotype/parse/indels.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { rowOfRsid } from '../../src/service/genotype/positions.js';
import type { ParseSuccess } from '../../src/service/genotype/types.js';
import {
  genotypeSiteReader,
  pharmacogeneData,
  pharmacogenesFor,
} from '../../src/service/science/pharmacogenes/index.js';
import { genotypeOf, positionIndex } from '../support/genotypes.js';
import { ROOT } from '../support/server.js';
import { enc } from './helpers.js';

const data = pharmacogeneData(path.join(ROOT, 'resources'));
const NUDT15 = data.table.genes.find((g) => g.gene === 'NUDT15')!;
/** NUDT15 *18: PharmCAT's GRCh38 chr13:48040977 GA>G, the A deleted from a run of five (g.48040982del). */
const STAR18 = 1457579126;
const STAR18_SITE = NUDT15.sites.find((s) => s.rsid === STAR18)!;

function vcf(build: 37 | 38, lines: string[]): string {
  return [
    '##fileformat=VCFv4.2',
    `##reference=GRCh${build}`,
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
    ...lines,
    '',
  ].join('\n');
}

const record = (chrom: string, pos: number, id: string, ref: string, alt: string, gt: string) =>
  `${chrom}\t${pos}\t${id}\t${ref}\t${alt}\t50\tPASS\t.\tGT\t${gt}`;

/**
 * Every other NUDT15 position as REF/REF in `build`, sorted with the indel record(s) given,
 * after 400 REF/REF lines on chr12 at no marker: past the parser's 300-line detection sample,
 * so the NUDT15 lines go through the WebAssembly loop as a real file's do.
 */
function nudt15File(build: 37 | 38, indelLines: Array<[number, string]>, replaced = STAR18): string {
  const filler = Array.from({ length: 400 }, (_, i) => record('chr12', 1_000_003 + i * 7, '.', 'A', '.', '0/0'));
  const lines: Array<[number, string]> = [...indelLines];
  for (const site of NUDT15.sites) {
    if (site.rsid === replaced) continue;
    const pos = build === 38 ? site.pos38 : site.pos37!;
    if (site.minus37 && build === 37) continue;
    lines.push([pos, record('chr13', pos, '.', site.ref, site.alts[0], '0/0')]);
  }
  return vcf(build, [...filler, ...lines.sort((a, b) => a[0] - b[0]).map(([, l]) => l)]);
}

async function parsed(text: string): Promise<ParseSuccess> {
  const r = await parseGenotypeBytes(enc(text), { positionIndex: positionIndex() });
  if (!r.ok) throw new Error(`rejected: ${r.reason}`);
  return r;
}

async function nudt15(text: string, marker = STAR18) {
  const p = await parsed(text);
  const result = pharmacogenesFor(data, genotypeSiteReader(p.genotype, p.summary.build, data.table)).find(
    (r) => r.gene === 'NUDT15',
  )!;
  const at = findRsid(p.genotype.rsids, marker);
  return { result, markerCall: at < 0 ? null : callToString(p.genotype.calls[at]), notes: p.summary.notes };
}

/** A gene's call without the positions' coordinates (GRCh37's differ): what every layout must share. */
function callOf({ result: r }: { result: ReturnType<typeof pharmacogenesFor>[number] }) {
  return {
    status: r.status,
    diplotype: r.diplotype,
    candidates: r.candidates,
    phenotype: r.phenotype,
    alleles_not_ruled_out: r.alleles_not_ruled_out,
    read: r.positions.read.map((p) => [p.rsid, p.genotype]),
    missing: r.positions.missing.map((p) => p.rsid),
    no_call: r.positions.no_call.map((p) => p.rsid),
    summary: r.summary,
  };
}

describe('indel markers in the position index', () => {
  it('carry PharmCAT’s VCF alleles and the repeat the indel can shift within, in both builds', () => {
    const index = positionIndex();
    const star18 = index.indels.get(rowOfRsid(index, STAR18))!;
    expect([star18.ref, star18.alts]).toEqual(['GA', ['G']]);
    // GA>G at 48040977 and g.48040982del are one deletion: the A run reaches 48040982.
    expect(star18.window38).toBe('GAAAAA');
    expect(star18.window37).toBe('GAAAAA');
    const ugt1a1 = index.indels.get(rowOfRsid(index, 3064744))!;
    // UGT1A1 *28's TA repeat: REF CAT at 233760233, seven TA units from 233760235 (g.233760235TA[7]).
    expect([ugt1a1.ref, ugt1a1.alts, ugt1a1.window38]).toEqual(['CAT', ['C', 'CATAT', 'CATATAT'], 'CATATATATATATATA']);
    const report = JSON.parse(readFileSync(path.join(ROOT, 'resources', 'catalog', 'build-report.json'), 'utf8'))
      .positions.indels;
    expect(report.markers).toBe(index.indels.size);
    expect(report.with_alleles_grch38).toBe([...index.indels.values()].filter((d) => d.window38 !== '').length);
    expect(report.with_alleles_grch37).toBe([...index.indels.values()].filter((d) => d.window37 !== '').length);
  });

  it('match a record shifted right within the repeat, and tell another length apart', () => {
    const index = positionIndex();
    const ugt1a1 = index.indels.get(rowOfRsid(index, 3064744))!;
    const read = (pos: number, alleles: string[], k1: number, k2: number) =>
      readIndelRecord(233760233, ugt1a1.window38, ugt1a1.ref, ugt1a1.alts, pos, alleles, k1, k2);
    // *28's TA inserted at the 3' end of the repeat, as a caller that does not left-align writes it.
    expect(read(233760248, ['A', 'ATA'], 0, 1)).toEqual({ kind: 'alleles', first: 0, second: 2 });
    // Extra shared bases: REF CATAT ALT CAT deletes one TA, as REF CAT ALT C does.
    expect(read(233760233, ['CATAT', 'CAT'], 1, 1)).toEqual({ kind: 'alleles', first: 1, second: 1 });
    expect(read(233760233, ['CATATAT', 'CATAT', 'CAT'], 0, 1)).toEqual({ kind: 'alleles', first: 0, second: 1 });
    // Two TA units deleted is no allele of the definitions.
    expect(read(233760233, ['CATATAT', 'CATAT', 'CAT'], 0, 2)).toEqual({ kind: 'other_allele' });
    // Three bases inserted do not fit a TA repeat: another allele.
    expect(read(233760248, ['A', 'ATAT'], 0, 1)).toEqual({ kind: 'other_allele' });
    // A REF that disagrees with the repeat's bases is another variant or build.
    expect(read(233760240, ['G', 'GT'], 0, 1)).toEqual({ kind: 'ref_differs' });
    expect(read(233760240, ['A', 'G'], 0, 1)).toEqual({ kind: 'not_indel' });
    expect(trimAlleles(100, 'CTT', 'CT')).toEqual({ pos: 100, ref: 'CT', alt: 'C' });
    expect(trimAlleles(100, 'GCAT', 'GAT')).toEqual({ pos: 100, ref: 'GC', alt: 'G' });
  });
});

describe('one NUDT15 genotype written as callers write it', () => {
  it('gives the same drug–gene call from every layout, in GRCh38 and GRCh37', async () => {
    const p38 = STAR18_SITE.pos38;
    const p37 = STAR18_SITE.pos37!;
    expect(STAR18_SITE.minus37).toBe(false);
    const layouts: Record<string, string> = {
      minimal: nudt15File(38, [[p38, record('chr13', p38, '.', 'GA', 'G', '0/1')]]),
      'extra shared bases': nudt15File(38, [[p38, record('chr13', p38, '.', 'GAAA', 'GAA', '0/1')]]),
      'shifted right in the A run': nudt15File(38, [[p38 + 4, record('chr13', p38 + 4, '.', 'AA', 'A', '0/1')]]),
      'multi-allelic with a SNV': nudt15File(38, [[p38, record('chr13', p38, '.', 'GA', 'CA,G', '0/2')]]),
      'multi-allelic with its rsID': nudt15File(38, [
        [p38, record('chr13', p38, 'rs1457579126', 'GAA', 'CAA,GA', '0|2')],
      ]),
      GRCh37: nudt15File(37, [[p37, record('13', p37, '.', 'GAA', 'GA', '0/1')]]),
    };
    const results = await Promise.all(Object.values(layouts).map((text) => nudt15(text)));
    const [first] = results;
    expect(first.markerCall).toBe('ID');
    expect(first.result.positions.read.map((p) => p.rsid)).toContain('rs1457579126');
    expect(first.result.candidates.length).toBeGreaterThan(0);
    for (const c of first.result.candidates) expect(c).toMatch(/\*18/);
    Object.keys(layouts).forEach((name, i) => {
      expect(results[i].markerCall, name).toBe('ID');
      expect(callOf(results[i]), name).toEqual(callOf(first));
    });
    // A chip export writes the same person's indels as D/I letters, the shorter allele D.
    const letters = (site: (typeof NUDT15.sites)[number]) => {
      if (site.rsid === STAR18) return 'DI';
      if (site.alts.length > 1) return null;
      const ref =
        site.ref.length === site.alts[0].length ? site.ref : site.ref.length < site.alts[0].length ? 'D' : 'I';
      return ref + ref;
    };
    const chip = genotypeOf(
      NUDT15.sites.flatMap((site) => {
        const genotype = letters(site);
        return site.rsid === null || genotype === null
          ? []
          : [{ rsid: site.rsid, chrom: NUDT15.chrom, pos: site.pos37!, genotype }];
      }),
    );
    const fromChip = pharmacogenesFor(data, genotypeSiteReader(chip, 37, data.table)).find((r) => r.gene === 'NUDT15')!;
    // D/I letters cannot write the repeat rs746071566 (several ALTs), which the VCF reads as
    // REF/REF: the chip keeps the VCF's candidates and those the repeat's reference rules out.
    expect(first.result.positions.read.find((p) => p.rsid === 'rs746071566')?.genotype).toBe('AGGAGTC/AGGAGTC');
    expect(fromChip.positions.missing.map((p) => p.rsid)).toContain('rs746071566');
    expect(fromChip.status).toBe(first.result.status);
    expect(fromChip.candidates).toEqual(expect.arrayContaining(first.result.candidates));
    expect(fromChip.candidates.filter((c) => !first.result.candidates.includes(c))).toEqual(['*6/*18', '*9/*18']);
  });

  it('does not read another indel or a SNV at the site as the marker, and says so', async () => {
    const p38 = STAR18_SITE.pos38;
    const others = {
      'two As deleted': record('chr13', p38, '.', 'GAA', 'G', '0/1'),
      'an A inserted': record('chr13', p38, '.', 'G', 'GA', '0/1'),
      'two As deleted, with the marker’s rsID': record('chr13', p38, 'rs1457579126', 'GAA', 'G', '0/1'),
      'two As deleted, shifted right': record('chr13', p38 + 3, '.', 'AAA', 'A', '0/1'),
    };
    for (const [name, line] of Object.entries(others)) {
      const r = await nudt15(nudt15File(38, [[p38, line]]));
      expect(r.markerCall, name).toBeNull();
      expect(
        r.result.positions.missing.map((p) => p.rsid),
        name,
      ).toContain('rs1457579126');
      expect(r.notes.join(' '), name).toMatch(
        /1 insertion\/deletion line sits at an indel marker's GRCh38 site but carries/,
      );
    }
    // A SNV at the anchor base says nothing about the deletion: the position stays unread.
    const snv = await nudt15(nudt15File(38, [[p38, record('chr13', p38, '.', 'G', 'C', '0/1')]]));
    expect(snv.markerCall).toBeNull();
    expect(snv.result.positions.missing.map((p) => p.rsid)).toContain('rs1457579126');
  });

  it('splits a multi-allelic record holding an indel and a SNV for the SNP marker at its position', async () => {
    // NUDT15 *3: rs116855232 C>T at 48045719; the next base is rs147390019's reference G.
    const STAR3 = 116855232;
    const pos = NUDT15.sites.find((s) => s.rsid === STAR3)!.pos38;
    const file = (line: string) => nudt15File(38, [[pos, line]], STAR3);
    const minimal = await nudt15(file(record('chr13', pos, '.', 'C', 'T', '0/1')), STAR3);
    expect(minimal.markerCall).toBe('CT');
    for (const [name, line] of Object.entries({
      'shared trailing base': record('chr13', pos, '.', 'CG', 'TG', '0/1'),
      'with a deletion, not called': record('chr13', pos, '.', 'CG', 'C,TG', '0/2'),
    })) {
      const r = await nudt15(file(line), STAR3);
      expect(r.markerCall, name).toBe('CT');
      expect([r.result.candidates, r.result.summary], name).toEqual([
        minimal.result.candidates,
        minimal.result.summary,
      ]);
    }
    // The deletion called with the SNV: the chromosome with the deletion says nothing of the SNP.
    const withDeletion = await nudt15(file(record('chr13', pos, '.', 'CG', 'C,TG', '1/2')), STAR3);
    expect(withDeletion.markerCall).toBeNull();
  });
});

/**
 * UGT1A1's TA repeat (rs3064744): PharmCAT's GRCh38 REF CAT at 233760233 is *1's A(TA)6TAA
 * (g.233760235TA[7]); ALT C is *36 ((TA)5), CATAT *28 ((TA)7), CATATAT *37 ((TA)8).
 */
const UGT1A1 = data.table.genes.find((g) => g.gene === 'UGT1A1')!;
const TA_REPEAT = 3064744;
const TA_SITE = UGT1A1.sites.find((s) => s.rsid === TA_REPEAT)!;

/**
 * UGT1A1's other positions (the *80, *6 and *27 SNPs) as REF/REF in `build`, with the TA
 * repeat's record(s), after 400 REF/REF lines on chr1 at no marker (past the detection sample).
 */
function ugt1a1File(build: 37 | 38, repeatLines: Array<[number, string]>): string {
  const chrom = build === 38 ? 'chr2' : '2';
  const filler = Array.from({ length: 400 }, (_, i) => record('chr1', 1_000_003 + i * 7, '.', 'A', '.', '0/0'));
  const lines: Array<[number, string]> = [...repeatLines];
  for (const site of UGT1A1.sites) {
    if (site.rsid === TA_REPEAT) continue;
    const pos = build === 38 ? site.pos38 : site.pos37!;
    lines.push([pos, record(chrom, pos, '.', site.ref, site.alts[0], '0/0')]);
  }
  return vcf(build, [
    ...filler.map((l) => (build === 38 ? l : l.replace(/^chr/, ''))),
    ...lines.sort((a, b) => a[0] - b[0]).map(([, l]) => l),
  ]);
}

async function ugt1a1(text: string) {
  const p = await parsed(text);
  const result = pharmacogenesFor(data, genotypeSiteReader(p.genotype, p.summary.build, data.table)).find(
    (r) => r.gene === 'UGT1A1',
  )!;
  const at = findRsid(p.genotype.rsids, TA_REPEAT);
  return { result, markerCall: at < 0 ? null : callToString(p.genotype.calls[at]), notes: p.summary.notes.join(' ') };
}

describe('an indel marker with several ALTs (UGT1A1’s TA repeat)', () => {
  it('is listed with the same alleles, in the same order, as the drug–gene table, in both builds', () => {
    const index = positionIndex();
    const several = [...index.indels.values()].filter((d) => d.alts.length > 1);
    // UGT1A1's TA repeat, NUDT15 rs746071566 and CYP2D6 rs72549356.
    expect(several.map((d) => index.rsid[d.row]).sort((a, b) => a - b)).toEqual([3064744, 72549356, 746071566]);
    for (const d of several) {
      expect(d.window37, `rs${index.rsid[d.row]}`).not.toBe('');
      expect(d.window38, `rs${index.rsid[d.row]}`).not.toBe('');
      const site = data.table.genes.flatMap((g) => g.sites).find((s) => s.rsid === index.rsid[d.row])!;
      expect([d.ref, d.alts], `rs${index.rsid[d.row]}`).toEqual([site.ref, site.alts]);
    }
    const report = JSON.parse(readFileSync(path.join(ROOT, 'resources', 'catalog', 'build-report.json'), 'utf8'))
      .positions.indels;
    expect([report.with_several_alts, report.with_several_alts_both_builds]).toEqual([3, 3]);
  });

  it('reads a record beginning before the marker by its own REF, and only the marker’s part of it', () => {
    const index = positionIndex();
    const d = index.indels.get(rowOfRsid(index, TA_REPEAT))!;
    const read = (pos: number, alleles: string[], k1: number, k2: number) =>
      readIndelRecord(233760233, d.window38, d.ref, d.alts, pos, alleles, k1, k2);
    // Two bases in front (the record's own; the index does not know them), then *28's TA inserted.
    expect(read(233760231, ['GGCAT', 'GGCATAT'], 0, 1)).toEqual({ kind: 'alleles', first: 0, second: 2 });
    // A SNV in front merged with the deletion of *36: the SNV's chromosome holds the marker's REF.
    expect(read(233760231, ['GGCAT', 'TGCAT', 'GGC'], 1, 2)).toEqual({ kind: 'alleles', first: 0, second: 1 });
    // A deletion that takes the anchor C with it is none of the marker's alleles.
    expect(read(233760231, ['GGCAT', 'G'], 0, 1)).toEqual({ kind: 'other_allele' });
    // A REF ending before the marker cannot hold its (left-aligned) event.
    expect(read(233760231, ['GG', 'G'], 0, 1)).toEqual({ kind: 'not_indel' });
    // A REF whose bases at the marker disagree with the window is another variant or build.
    expect(read(233760231, ['GGGAT', 'GGGATAT'], 0, 1)).toEqual({ kind: 'ref_differs' });
    // A record past the repeat holds none of the marker's bases.
    expect(read(233760249, ['AG', 'A'], 0, 1)).toEqual({ kind: 'not_indel' });
    // Further before the marker than a read's length, a record is not looked at.
    const front = (n: number) => 'G'.repeat(n);
    const lead = INDEL_LOOKBEHIND;
    expect(read(233760233 - lead, [front(lead) + 'CAT', front(lead) + 'CATAT'], 0, 1)).toEqual({
      kind: 'alleles',
      first: 0,
      second: 2,
    });
    expect(read(233760232 - lead, [front(lead + 1) + 'CAT', front(lead + 1) + 'CATAT'], 0, 1)).toEqual({
      kind: 'not_indel',
    });
  });

  it('gives *1/*28 from (TA)6/(TA)7 written every way callers write it, in GRCh38 and GRCh37', async () => {
    const p = TA_SITE.pos38;
    const chr2 = (pos: number, id: string, ref: string, alt: string, gt: string) =>
      [pos, record('chr2', pos, id, ref, alt, gt)] as [number, string];
    const layouts: Record<string, Array<[number, string]>> = {
      minimal: [chr2(p, '.', 'C', 'CAT', '0/1')],
      'PharmCAT’s own alleles': [chr2(p, '.', 'CAT', 'CATAT', '0/1')],
      'extra shared bases': [chr2(p, '.', 'CATATATA', 'CATATATATA', '0/1')],
      'multi-allelic with (TA)5': [chr2(p, '.', 'CAT', 'C,CATAT', '0/2')],
      'multi-allelic with its rsID': [chr2(p, 'rs3064744', 'CAT', 'C,CATAT', '0|2')],
      'shifted right to the end of the repeat': [chr2(p + 15, '.', 'A', 'ATA', '0/1')],
      'beginning before the repeat': [chr2(p - 2, '.', 'GGCAT', 'GGCATAT', '0/1')],
      'beginning before, merged with a SNV in front': [chr2(p - 2, '.', 'GGCAT', 'TGCAT,GGCATAT', '1/2')],
      'a record before the repeat, then one at it': [
        chr2(p - 2, '.', 'GGCAT', 'GG', '0/0'),
        chr2(p, '.', 'CAT', 'CATAT', '0/1'),
      ],
      GRCh37: [[TA_SITE.pos37!, record('2', TA_SITE.pos37!, '.', 'CAT', 'CATAT', '0/1')]],
    };
    const results: Array<Awaited<ReturnType<typeof ugt1a1>>> = [];
    for (const [name, lines] of Object.entries(layouts))
      results.push(await ugt1a1(ugt1a1File(name === 'GRCh37' ? 37 : 38, lines)));
    const [first] = results;
    expect(first.markerCall).toBe('02');
    expect([first.result.status, first.result.diplotype, first.result.phenotype]).toEqual([
      'called',
      '*1/*28',
      'Intermediate Metabolizer',
    ]);
    expect(first.result.positions.read.find((x) => x.rsid === 'rs3064744')!.genotype).toBe('CAT/CATAT');
    Object.keys(layouts).forEach((name, i) => {
      expect(results[i].markerCall, name).toBe('02');
      expect(callOf(results[i]), name).toEqual(callOf(first));
    });
  });

  it('gives *28/*28 from (TA)7/(TA)7, *36/*37 from (TA)5/(TA)8, with the medicine it affects', async () => {
    const p = TA_SITE.pos38;
    const hom = await ugt1a1(ugt1a1File(38, [[p, record('chr2', p, '.', 'CAT', 'CATAT', '1/1')]]));
    expect([hom.markerCall, hom.result.status, hom.result.diplotype, hom.result.phenotype]).toEqual([
      '22',
      'called',
      '*28/*28',
      'Poor Metabolizer',
    ]);
    expect(hom.result.medicines.map((m) => [m.medicine, m.pmid])).toEqual([['atazanavir', '26417955']]);
    const other = await ugt1a1(ugt1a1File(38, [[p, record('chr2', p, '.', 'CAT', 'C,CATATAT', '1/2')]]));
    expect([other.markerCall, other.result.diplotype, other.result.phenotype]).toEqual([
      '13',
      '*36/*37',
      'Intermediate Metabolizer',
    ]);
  });

  it('counts an allele the definitions lack as a mismatch, never a call', async () => {
    const p = TA_SITE.pos38;
    for (const [name, line] of Object.entries({
      '(TA)10': record('chr2', p, '.', 'CAT', 'CATATATAT', '0/1'),
      '(TA)10 with its rsID': record('chr2', p, 'rs3064744', 'CAT', 'CATATATAT', '0/1'),
      'three bases inserted': record('chr2', p, '.', 'CAT', 'CATTAT', '0/1'),
      '(TA)10 beginning before': record('chr2', p - 2, '.', 'GGCAT', 'GGCATATATAT', '0/1'),
    })) {
      const r = await ugt1a1(ugt1a1File(38, [[p, line]]));
      expect(r.markerCall, name).toBeNull();
      expect(
        r.result.positions.missing.map((x) => x.rsid),
        name,
      ).toContain('rs3064744');
      expect(r.result.diplotype, name).toBeNull();
      expect(r.notes, name).toMatch(/1 insertion\/deletion line sits at an indel marker's GRCh38 site but carries/);
    }
  });

  it('leaves a chip export’s D/I letters at the repeat unread: they cannot say which allele', () => {
    const chip = genotypeOf(
      UGT1A1.sites.flatMap((site) =>
        site.rsid === null
          ? []
          : [
              {
                rsid: site.rsid,
                chrom: UGT1A1.chrom,
                pos: site.pos37!,
                genotype: site.rsid === TA_REPEAT ? 'DI' : site.ref + site.ref,
              },
            ],
      ),
    );
    const r = pharmacogenesFor(data, genotypeSiteReader(chip, 37, data.table)).find((x) => x.gene === 'UGT1A1')!;
    const repeat = r.positions.no_call.find((x) => x.rsid === 'rs3064744')!;
    expect(repeat.problem).toMatch(/D\/I letters cannot say which allele/);
    expect(r.diplotype).toBeNull();
    expect(r.candidates).toEqual(expect.arrayContaining(['*1/*1', '*1/*28', '*28/*28']));
  });
});
