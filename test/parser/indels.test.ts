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
import { readIndelRecord, trimAlleles } from '../../src/service/genotype/parse/indels.js';
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
    // Everything but the positions' coordinates (GRCh37 differs) must be the same.
    const callOf = ({ result: r }: (typeof results)[number]) => ({
      status: r.status,
      diplotype: r.diplotype,
      candidates: r.candidates,
      phenotype: r.phenotype,
      alleles_not_ruled_out: r.alleles_not_ruled_out,
      read: r.positions.read.map((p) => [p.rsid, p.genotype]),
      missing: r.positions.missing.map((p) => p.rsid),
      no_call: r.positions.no_call.map((p) => p.rsid),
      summary: r.summary,
    });
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
    expect([fromChip.status, fromChip.candidates, fromChip.summary]).toEqual([
      first.result.status,
      first.result.candidates,
      first.result.summary,
    ]);
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
      expect(r.notes.join(' '), name).toMatch(/1 insertion\/deletion lines sit at an indel marker's GRCh38 site/);
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

describe('an indel marker with several ALTs', () => {
  it('is compared with the record, but a match cannot be written as D/I', async () => {
    // UGT1A1's TA repeat (rs3064744, REF CAT, ALT C, CATAT, CATATAT at GRCh38 chr2:233760233).
    const filler = Array.from({ length: 400 }, (_, i) => record('chr1', 1_000_003 + i * 7, '.', 'A', '.', '0/0'));
    // UGT1A1 *80 (rs887829), REF/REF, so that the file has a marker besides the repeat.
    const star80 = data.table.genes.find((g) => g.gene === 'UGT1A1')!.sites.find((s) => s.rsid === 887829)!;
    expect(star80.pos38).toBeLessThan(233760233);
    const other = record('chr2', star80.pos38, '.', star80.ref, star80.alts[0], '0/0');
    const read = async (line: string) => {
      const p = await parsed(vcf(38, [...filler, other, line]));
      const at = findRsid(p.genotype.rsids, 3064744);
      return { call: at < 0 ? null : callToString(p.genotype.calls[at]), notes: p.summary.notes.join(' ') };
    };
    // *28 matches, but D/I would not say which of four alleles: unread by position, read the old way by rsID.
    expect((await read(record('chr2', 233760233, '.', 'CAT', 'CATAT', '0/1'))).call).toBeNull();
    expect((await read(record('chr2', 233760233, 'rs3064744', 'CAT', 'CATAT', '0/1'))).call).toBe('DI');
    // Ten TA units is none of the definitions' alleles: not read even with the rsID, and counted.
    const ten = await read(record('chr2', 233760233, 'rs3064744', 'CAT', 'CATATATAT', '0/1'));
    expect(ten.call).toBeNull();
    expect(ten.notes).toMatch(/1 insertion\/deletion lines sit at an indel marker's GRCh38 site/);
  });
});
