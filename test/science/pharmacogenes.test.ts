/**
 * Drug–gene calling (src/service/science/pharmacogenes): diplotypes from unphased files,
 * never a reference allele filled in for a missing position or a no-call, the opposite
 * strand, every vendor format, and reading by GRCh37/GRCh38 position (docs/pharmacogenes.md).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alleleFromLetter, definedAllele, makeCall } from '../../src/service/genotype/encoding.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import { callPharmacogene, type PharmacogeneCall } from '../../src/service/science/pharmacogenes/call.js';
import {
  genotypeSiteReader,
  pharmacogeneData,
  pharmacogenesFor,
} from '../../src/service/science/pharmacogenes/index.js';
import type {
  PharmacogeneAllele,
  PharmacogeneDefinition,
  PharmacogeneSite,
} from '../../src/service/science/pharmacogenes/table.js';
import { vendorFile, type Marker } from '../support/genotypes.js';
import { seededSample } from '../support/prng.js';
import { scienceSize } from '../support/science-scale.js';
import { ROOT } from '../support/server.js';

const data = pharmacogeneData(path.join(ROOT, 'resources'));
const GENES = new Map(data.table.genes.map((g) => [g.gene, g]));
const gene = (name: string) => GENES.get(name)!;
const CALLABLE = data.table.genes.filter((g) => !g.notDeterminableReason);

/**
 * The letter a file shows for an allele's base: an IUPAC code (the allele is defined either
 * way there) shows as the site's reference base when it stands for it, else its first base.
 */
const LETTERS = new Map(
  Object.entries({ A: 'A', C: 'C', G: 'G', T: 'T', R: 'AG', Y: 'CT', S: 'CG', W: 'AT', K: 'GT', M: 'AC', N: 'ACGT' }),
);
const isLetter = (b: string) => b.length === 1 && LETTERS.get(b) === b;
const lettersFor = (base: string) => LETTERS.get(base) ?? '';
const shown = (base: string, site: PharmacogeneSite) =>
  lettersFor(base).includes(site.ref) ? site.ref : lettersFor(base)[0];
const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
/** A position a chip can read: single-base reference and alternatives (no indels or repeats). */
const chipReadable = (site: PharmacogeneSite) => [site.ref, ...site.alts].every(isLetter);

/** Site index → two letters, as an unphased file shows a pair of named alleles at the chip-readable positions. */
function lettersOf(def: PharmacogeneDefinition, a: PharmacogeneAllele, b: PharmacogeneAllele): Map<number, string> {
  const letters = new Map<number, string>();
  def.sites.forEach((site, s) => {
    if (chipReadable(site)) letters.set(s, shown(a.bases[s], site) + shown(b.bases[s], site));
  });
  return letters;
}

/** Site → its index in the definition, once per gene. */
const siteIndex = memoPerGene((def) => new Map<PharmacogeneSite, number>(def.sites.map((s, i) => [s, i])));

function callFrom(def: PharmacogeneDefinition, letters: Map<number, string>): PharmacogeneCall {
  const index = siteIndex(def);
  return callPharmacogene(
    def,
    (site) => {
      const g = letters.get(index.get(site)!);
      if (g === undefined) return undefined;
      if (g === '--') return 0;
      return makeCall(alleleFromLetter(g[0]), alleleFromLetter(g[1]));
    },
    data.table.source,
  );
}

/** The truth's two spellings (definition order and the phenotype mapping's). */
function truthOf(def: PharmacogeneDefinition, a: PharmacogeneAllele, b: PharmacogeneAllele) {
  const order = (n: string) => def.alleles.findIndex((x) => x.reportAs === n);
  const key = [a.reportAs, b.reportAs].sort((x, y) => order(x) - order(y)).join('/');
  return { key, display: def.phenotypes[key]?.diplotype ?? key, phenotype: def.phenotypes[key]?.phenotype ?? null };
}

function pairsOf(def: PharmacogeneDefinition): Array<[PharmacogeneAllele, PharmacogeneAllele]> {
  const pairs: Array<[PharmacogeneAllele, PharmacogeneAllele]> = [];
  for (let i = 0; i < def.alleles.length; i++)
    for (let j = i; j < def.alleles.length; j++) pairs.push([def.alleles[i], def.alleles[j]]);
  return pairs;
}

/**
 * Honest against the truth: never a wrong call, the truth among the candidates, no wrong
 * phenotype. What it finds otherwise, in words; the loops over thousands of files collect
 * these and expect none at the end (one expect per check would cost more than the calls).
 */
function dishonesty(def: PharmacogeneDefinition, r: PharmacogeneCall, truth: ReturnType<typeof truthOf>): string[] {
  const found: string[] = [];
  if (r.status === 'not_tested') {
    if (r.positions.read.length !== 0) found.push(`not_tested, yet ${r.positions.read.length} positions read`);
  } else if (!r.candidates.includes(truth.display))
    found.push(`the truth ${truth.display} is not among the candidates ${r.candidates.join(', ')}`);
  if (r.status === 'called' ? r.diplotype !== truth.display : r.diplotype !== null)
    found.push(`${r.status} with diplotype ${r.diplotype}, the truth being ${truth.display}`);
  if (r.phenotype !== null && r.phenotype !== truth.phenotype)
    found.push(`phenotype ${r.phenotype}, the truth's being ${truth.phenotype}`);
  if (r.versions.definitions !== def.definitionVersion)
    found.push(`definitions version ${r.versions.definitions}, not ${def.definitionVersion}`);
  return found;
}

/** A call is unique exactly when no other pair of named alleles fits what the file shows. */
function uniqueness(r: PharmacogeneCall, fitting: number): string[] {
  return (r.status === 'called') === (fitting === 1)
    ? []
    : [`${r.status} while ${fitting} pairs of named alleles fit what the file shows`];
}

/** A value worked out once per gene definition. */
function memoPerGene<T>(make: (def: PharmacogeneDefinition) => T): (def: PharmacogeneDefinition) => T {
  const memo = new Map<PharmacogeneDefinition, T>();
  return (def) => {
    if (!memo.has(def)) memo.set(def, make(def));
    return memo.get(def)!;
  };
}

describe('drug–gene calling from unphased files', () => {
  it('ships every gene the issue names, CYP2D6 included, with versions', () => {
    expect(data.table.genes.map((g) => g.gene).sort()).toEqual(
      [
        'ABCG2',
        'CYP2B6',
        'CYP2C19',
        'CYP2C9',
        'CYP2D6',
        'CYP3A4',
        'CYP3A5',
        'CYP4F2',
        'DPYD',
        'IFNL3',
        'NAT2',
        'NUDT15',
        'SLCO1B1',
        'TPMT',
        'UGT1A1',
        'VKORC1',
      ].sort(),
    );
    for (const g of data.table.genes) {
      expect(g.definitionVersion, g.gene).toMatch(/^\d{4}-\d{2}-\d{2}/);
      expect(
        g.sites.every((s) => s.pos37 !== null && s.pos38 > 0),
        g.gene,
      ).toBe(true);
    }
    // Lifted GRCh37 positions agree with the ones chips print (dbSNP, build 37).
    const site = (name: string, rsid: number) => gene(name).sites.find((s) => s.rsid === rsid)!;
    expect(site('CYP2C19', 4244285).pos37).toBe(96541616);
    expect(site('VKORC1', 9923231).pos37).toBe(31107689);
  });

  // Every diplotype of named alleles as a complete unphased file shows it (full size: all pairs).
  for (const def of CALLABLE) {
    it(`${def.gene}: every diplotype of a complete file is called correctly or listed among the candidates`, () => {
      const pairs = pairsOf(def);
      const sample = seededSample(pairs, scienceSize(120, pairs.length), def.chrom);
      let called = 0;
      const wrong: string[] = [];
      for (const [a, b] of sample) {
        const truth = truthOf(def, a, b);
        const letters = lettersOf(def, a, b);
        const r = callFrom(def, letters);
        // Honest, and called exactly when no other pair of named alleles fits the same letters.
        for (const w of [...dishonesty(def, r, truth), ...uniqueness(r, fittingPairs(def, letters).size)])
          wrong.push(`${def.gene} ${truth.display}: ${w}`);
        if (r.status === 'called') called++;
      }
      expect(wrong).toEqual([]);
      expect(called, def.gene).toBeGreaterThan(0);
    });
  }

  // A sequencing VCF also reads the indels with several ALTs (UGT1A1's TA repeat, NUDT15
  // rs746071566): the parser stores the allele it matched as a defined-allele code
  // (encoding.ts), k for the site's k-th allele, 0 its REF.
  for (const name of ['UGT1A1', 'NUDT15']) {
    it(`${name}: every diplotype is called correctly or listed when the repeat is read, as from a VCF`, () => {
      const def = gene(name);
      const several = (site: PharmacogeneSite) =>
        site.alts.length > 1 && site.alts.some((x) => x.length !== site.ref.length);
      expect(def.sites.some(several), name).toBe(true);
      // What the file shows at each read position: two letters, or the repeat's two alleles.
      const view = (a: PharmacogeneAllele, b: PharmacogeneAllele) => {
        const shown = new Map<number, [string, string]>();
        for (const [s, g] of lettersOf(def, a, b)) shown.set(s, [g[0], g[1]]);
        def.sites.forEach((site, s) => {
          if (several(site)) shown.set(s, [a.bases[s], b.bases[s]]);
        });
        return shown;
      };
      // What each allele can show at each position: the repeat's allele itself, or the letters of its base.
      const shows = new Map(
        def.alleles.map((x) => [
          x,
          def.sites.map((site, s) => new Set(several(site) ? [x.bases[s]] : lettersFor(x.bases[s]))),
        ]),
      );
      const can = (x: PharmacogeneAllele, s: number, token: string) => shows.get(x)![s].has(token);
      const fitting = (shown: Map<number, [string, string]>) => {
        const found = new Set<string>();
        for (const [x, y] of pairsOf(def))
          if ([...shown].every(([s, [t, u]]) => (can(x, s, t) && can(y, s, u)) || (can(x, s, u) && can(y, s, t))))
            found.add(truthOf(def, x, y).key);
        return found;
      };
      let called = 0;
      const wrong: string[] = [];
      for (const [a, b] of pairsOf(def)) {
        const truth = truthOf(def, a, b);
        const shown = view(a, b);
        const r = callPharmacogene(
          def,
          (site) => {
            const s = def.sites.indexOf(site);
            const g = shown.get(s);
            if (g === undefined) return undefined;
            if (!several(site)) return makeCall(alleleFromLetter(g[0]), alleleFromLetter(g[1]));
            const k = (allele: string) => definedAllele([site.ref, ...site.alts].indexOf(allele));
            return makeCall(k(g[0]), k(g[1]));
          },
          data.table.source,
        );
        // Honest, and called exactly when no other pair of named alleles fits what the file shows.
        for (const w of [...dishonesty(def, r, truth), ...uniqueness(r, fitting(shown).size)])
          wrong.push(`${name} ${truth.display}: ${w}`);
        if (r.status === 'called') called++;
      }
      expect(wrong).toEqual([]);
      expect(called, name).toBeGreaterThan(0);
    });
  }

  // The caller keeps what a definition alone decides (each allele's bits, its own positions);
  // a copy of a definition is another definition to it, with all of that worked out anew.
  it('gives the same call from a definition it has called before as from a fresh copy of it', () => {
    for (const def of CALLABLE) {
      for (const [a, b] of seededSample(pairsOf(def), 4, def.chrom)) {
        const complete = lettersOf(def, a, b);
        const gap = new Map(complete);
        gap.delete(gap.keys().next().value!);
        for (const letters of [complete, gap]) {
          callFrom(def, letters);
          expect(JSON.stringify(callFrom(def, letters)), def.gene).toBe(JSON.stringify(callFrom({ ...def }, letters)));
        }
      }
    }
  });

  it('calls UGT1A1 *1/*28, *28/*28 and *1/*36 from the TA repeat read as from a VCF', () => {
    const def = gene('UGT1A1');
    const repeat = def.sites.findIndex((s) => s.rsid === 3064744);
    const alleles = [def.sites[repeat].ref, ...def.sites[repeat].alts];
    const named = (n: string) => def.alleles.find((a) => a.name === n)!;
    for (const [x, y, diplotype, phenotype] of [
      ['*1', '*28', '*1/*28', 'Intermediate Metabolizer'],
      ['*28', '*28', '*28/*28', 'Poor Metabolizer'],
      ['*1', '*36', '*1/*36', 'Normal Metabolizer'],
    ]) {
      const letters = lettersOf(def, named(x), named(y));
      const r = callPharmacogene(
        def,
        (site) => {
          const s = def.sites.indexOf(site);
          if (s !== repeat) return makeCall(alleleFromLetter(letters.get(s)![0]), alleleFromLetter(letters.get(s)![1]));
          const k = (n: string) => alleles.indexOf(named(n).bases[s]);
          return makeCall(definedAllele(k(x)), definedAllele(k(y)));
        },
        data.table.source,
      );
      expect([r.status, r.diplotype, r.phenotype], diplotype).toEqual(['called', diplotype, phenotype]);
    }
  });

  it('calls the textbook diplotypes with their phenotypes', () => {
    const cases: Array<[string, string, string, string, string]> = [
      ['CYP2C19', '*1', '*2', '*1/*2', 'Intermediate Metabolizer'],
      ['CYP2C19', '*2', '*2', '*2/*2', 'Poor Metabolizer'],
      ['CYP2C19', '*1', '*17', '*1/*17', 'Rapid Metabolizer'],
      ['SLCO1B1', '*1', '*5', '*1/*5', 'Decreased Function'],
      [
        'VKORC1',
        'rs9923231 reference (C)',
        'rs9923231 variant (T)',
        'rs9923231 reference (C)/rs9923231 variant (T)',
        '-1639 AG',
      ],
    ];
    for (const [name, x, y, diplotype, phenotype] of cases) {
      const def = gene(name);
      const a = def.alleles.find((n) => n.name === x)!;
      const b = def.alleles.find((n) => n.name === y)!;
      const r = callFrom(def, lettersOf(def, a, b));
      expect([r.status, r.diplotype, r.phenotype], `${name} ${diplotype}`).toEqual(['called', diplotype, phenotype]);
    }
  });

  it('keeps the unphased and the chip-invisible apart: TPMT *1/*3A or *3B/*3C, CYP2C9 *1/*3 or *3/*6', () => {
    const tpmt = gene('TPMT');
    const pick = (def: PharmacogeneDefinition, n: string) => def.alleles.find((a) => a.name === n)!;
    const r = callFrom(tpmt, lettersOf(tpmt, pick(tpmt, '*1'), pick(tpmt, '*3A')));
    expect(r.status).toBe('ambiguous');
    expect(r.candidates).toEqual(expect.arrayContaining(['*1/*3A', '*3B/*3C']));
    expect(r.phenotypes_agree).toBe(false);
    expect(r.phenotype).toBeNull();
    expect(r.candidate_phenotypes).toEqual(expect.arrayContaining(['Intermediate Metabolizer', 'Poor Metabolizer']));
    // CYP2C9 *6 is a one-base deletion: single letters from a chip cannot rule it out.
    const c2c9 = gene('CYP2C9');
    const r9 = callFrom(c2c9, lettersOf(c2c9, pick(c2c9, '*1'), pick(c2c9, '*3')));
    expect(r9.status).toBe('ambiguous');
    expect(r9.candidates).toEqual(expect.arrayContaining(['*1/*3', '*3/*6']));
    expect(r9.positions.missing.map((p) => p.rsid)).toContain('rs9332131');
  });

  it('never gives a unique call that assumed the reference where a defining position is missing or not called', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const def of CALLABLE) {
      const ref = def.alleles.find((x) => x.reference)!;
      for (const [s, site] of def.sites.entries()) {
        if (!chipReadable(site)) continue;
        // Files where this position matters: a carrier and a homozygote of an allele it
        // defines, and the reference homozygote (whose call must not lean on the position either).
        const carrier = def.alleles.find((x) => !x.reference && x.bases[s] !== ref.bases[s]);
        const files: Array<[PharmacogeneAllele, PharmacogeneAllele]> = [[ref, ref]];
        if (carrier) files.push([ref, carrier], [carrier, carrier]);
        for (const [a, b] of [...files, ...seededSample(pairsOf(def), scienceSize(0, 3), s)]) {
          const full = lettersOf(def, a, b);
          const truth = truthOf(def, a, b);
          for (const gap of ['missing', 'no_call'] as const) {
            const letters = new Map(full);
            if (gap === 'missing') letters.delete(s);
            else letters.set(s, '--');
            const r = callFrom(def, letters);
            const label = `${def.gene} ${truth.display} without ${site.rsid ? `rs${site.rsid}` : site.pos38}`;
            const list = gap === 'missing' ? r.positions.missing : r.positions.no_call;
            const listed = list.some((p) => p.grch38 === site.pos38) ? [] : [`the position is not among the ${gap}`];
            // Honest, listed, and never a unique call while another pair (one with the
            // reference allele there, say) fits too.
            for (const w of [
              ...dishonesty(def, r, truth),
              ...listed,
              ...uniqueness(r, fittingPairs(def, letters).size),
            ])
              wrong.push(`${label}: ${w}`);
            checked++;
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it('does not fill in the classic traps: CYP2C19 rs3758581, CYP3A5 rs776746, UGT1A1 TA repeat', () => {
    const c19 = gene('CYP2C19');
    const star1 = c19.alleles.find((a) => a.name === '*1')!;
    const rs3758581 = c19.sites.findIndex((s) => s.rsid === 3758581);
    const missing = lettersOf(c19, star1, star1);
    missing.delete(rs3758581);
    const r = callFrom(c19, missing);
    expect(r.status).not.toBe('called');
    expect(r.candidates).toEqual(expect.arrayContaining(['*1/*1', '*1/*38', '*38/*38']));
    expect(r.alleles_unseen).toContain('*1');

    const c3a5 = gene('CYP3A5');
    const star3 = c3a5.alleles.find((a) => a.name === '*3')!;
    const rs776746 = c3a5.sites.findIndex((s) => s.rsid === 776746);
    const noCall = lettersOf(c3a5, star3, star3);
    noCall.set(rs776746, '--');
    const r3a5 = callFrom(c3a5, noCall);
    expect(r3a5.status).not.toBe('called');
    expect(r3a5.candidates).toEqual(expect.arrayContaining(['*1/*1', '*3/*3']));
    expect(r3a5.phenotype).toBeNull();

    // UGT1A1: rs887829 (the *80 tag) read, the TA repeat unreadable: *80 and *80+*28 stay apart.
    const ugt = gene('UGT1A1');
    const star80 = ugt.alleles.find((a) => a.name === '*80')!;
    const star80and28 = ugt.alleles.find((a) => a.name === '*80+*28')!;
    const tagged = callFrom(ugt, lettersOf(ugt, star80and28, star80and28));
    expect(tagged.status).toBe('ambiguous');
    expect(tagged.candidates).toEqual(
      expect.arrayContaining([truthOf(ugt, star80, star80).display, truthOf(ugt, star80and28, star80and28).display]),
    );
    expect(tagged.positions.missing.map((p) => p.rsid)).toContain('rs3064744');
  });

  it('reads the opposite strand, and a genotype that fits neither strand is a no-call', () => {
    const def = gene('CYP2C19');
    const a = def.alleles.find((n) => n.name === '*1')!;
    const b = def.alleles.find((n) => n.name === '*2')!;
    const forward = lettersOf(def, a, b);
    // A file on the opposite strand: at A/T and C/G positions the letters cannot show it
    // (they fit both strands and are read as given), so those stay as they are here.
    const fitsForward = (s: number, g: string) =>
      [...g].every((c) => [def.sites[s].ref, ...def.sites[s].alts].includes(c));
    const complement = (g: string) => g.replace(/./g, (c) => COMPLEMENT[c]);
    const flipped = new Map([...forward].map(([s, g]) => [s, fitsForward(s, complement(g)) ? g : complement(g)]));
    const r = callFrom(def, flipped);
    expect([r.status, r.diplotype]).toEqual(['called', '*1/*2']);
    const flippedSites = [...forward.keys()].filter((s) => flipped.get(s) !== forward.get(s));
    expect(flippedSites.length).toBeGreaterThan(20);
    for (const p of r.positions.read) {
      const s = def.sites.findIndex((x) => x.pos38 === p.grch38);
      expect(p.strand_flipped, p.rsid ?? '').toBe(flippedSites.includes(s));
    }
    // rs4244285 is G/A: "GC" fits neither G/A nor its complement C/T.
    const rs4244285 = def.sites.findIndex((s) => s.rsid === 4244285);
    const odd = new Map(forward);
    odd.set(rs4244285, 'GC');
    const r2 = callFrom(def, odd);
    const entry = r2.positions.no_call.find((p) => p.rsid === 'rs4244285')!;
    expect(entry.problem).toMatch(/neither strand/);
    expect(r2.status).not.toBe('called');
  });

  it('reports DPYD per variant with its function', () => {
    const def = gene('DPYD');
    const ref = def.alleles.find((a) => a.reference)!;
    const star2a = def.alleles.find((a) => a.name.includes('(*2A)'))!;
    const r = callFrom(def, lettersOf(def, ref, star2a));
    // *7 and *3 are deletions a chip cannot read: they stay possible on the other chromosome.
    expect(r.status).toBe('ambiguous');
    expect(r.candidates).toContain('Reference/c.1905+1G>A (*2A)');
    expect(r.variants).toEqual([expect.objectContaining({ allele: star2a.name, copies: 1, function: 'No function' })]);
    expect(r.candidate_phenotypes).toContain('Intermediate Metabolizer');
    // Every position read: a single call with its activity score.
    const rs3918290 = def.sites.findIndex((x) => x.rsid === 3918290);
    const onlyIt = new Map([[rs3918290, 'CT']]);
    for (const [i, site] of def.sites.entries())
      if (i !== rs3918290 && chipReadable(site)) onlyIt.set(i, site.ref + site.ref);
    expect(callFrom(def, onlyIt).variants.map((v) => v.rsid)).toEqual(['rs3918290']);
  });

  it('says CYP2D6 is not determinable from a chip, in plain words, whatever the file shows', () => {
    const def = gene('CYP2D6');
    const a = def.alleles.find((x) => x.reference)!;
    const r = callFrom(def, lettersOf(def, a, a));
    expect(r.status).toBe('not_determinable');
    expect(r.diplotype).toBeNull();
    expect(r.summary).toMatch(/deletion|copies/);
  });

  it('is not_tested when the file reads none of a gene’s positions, and gives medicines only for a known phenotype', () => {
    const results = pharmacogenesFor(data, () => undefined);
    for (const r of results.filter((x) => x.gene !== 'CYP2D6')) {
      expect(r.status, r.gene).toBe('not_tested');
      expect(r.medicines, r.gene).toEqual([]);
      expect(r.positions.missing.length, r.gene).toBeGreaterThan(0);
    }
    for (const r of results) {
      expect(r.cautions.map((c) => c.text).join(' ')).toMatch(/without your doctor or pharmacist/);
      expect(r.cautions.map((c) => c.pmid)).toContain('33589468');
    }
  });
});

/**
 * The oracle, by brute force over the definitions: the distinct diplotypes (reportAs pairs)
 * whose alleles could show these letters (no-calls and missing positions constrain nothing).
 */
function fittingPairs(def: PharmacogeneDefinition, letters: Map<number, string>): Set<string> {
  // Each letter as a bit (none for anything but A, C, G, T), to test against the letters an allele can show.
  const read = [...letters]
    .filter(([, g]) => g !== '--')
    .map(([s, g]) => [s, [LETTER_BIT.get(g[0]) ?? 0, LETTER_BIT.get(g[1]) ?? 0]] as const);
  const shows = letterBits(def);
  const can = (a: PharmacogeneAllele, s: number, c: number) => (shows.get(a)![s] & c) !== 0;
  const alone = def.alleles.filter((a) => read.every(([s, g]) => can(a, s, g[0]) || can(a, s, g[1])));
  const found = new Set<string>();
  for (let i = 0; i < alone.length; i++)
    for (let j = i; j < alone.length; j++)
      if (
        read.every(
          ([s, g]) =>
            (can(alone[i], s, g[0]) && can(alone[j], s, g[1])) || (can(alone[i], s, g[1]) && can(alone[j], s, g[0])),
        )
      )
        found.add(truthOf(def, alone[i], alone[j]).key);
  return found;
}

const LETTER_BIT = new Map([...'ACGT'].map((c, i) => [c, 1 << i]));
/** Per allele, per site: the letters a file can show for its base, a bit each. */
const letterBits = memoPerGene(
  (def) =>
    new Map(
      def.alleles.map((a) => [a, a.bases.map((b) => [...lettersFor(b)].reduce((m, c) => m | LETTER_BIT.get(c)!, 0))]),
    ),
);

/** A file with every readable position of these genes, from the given alleles (reference elsewhere). */
function markersFor(picks: Record<string, [string, string]>): Marker[] {
  const markers: Marker[] = [];
  for (const def of CALLABLE) {
    const ref = def.alleles.find((a) => a.reference)!;
    const [x, y] = picks[def.gene] ?? [ref.name, ref.name];
    const letters = lettersOf(
      def,
      def.alleles.find((a) => a.name === x)!,
      def.alleles.find((a) => a.name === y)!,
    );
    for (const [s, g] of letters) {
      const site = def.sites[s];
      if (site.rsid === null) continue;
      markers.push({ rsid: site.rsid, chrom: def.chrom, pos: site.pos37!, genotype: g });
    }
  }
  return markers.sort((a, b) => a.chrom - b.chrom || a.pos - b.pos);
}

const PICKS: Record<string, [string, string]> = {
  CYP2C19: ['*1', '*2'],
  CYP2C9: ['*1', '*3'],
  TPMT: ['*1', '*3A'],
  SLCO1B1: ['*1', '*5'],
};

function resultsOf(genotype: Genotype, build: 36 | 37 | 38 | null) {
  return new Map(pharmacogenesFor(data, genotypeSiteReader(genotype, build, data.table)).map((r) => [r.gene, r]));
}

describe('medicine notes', () => {
  it('name only phenotypes and alleles the definitions have, and guidelines they cite', () => {
    for (const [name, rules] of Object.entries(data.medicines.genes)) {
      const def = gene(name);
      expect(def, name).toBeDefined();
      const phenotypes = new Set(Object.values(def.phenotypes).map((p) => p.phenotype));
      const alleles = new Set(def.alleles.map((a) => a.reportAs));
      for (const rule of rules) {
        for (const p of rule.phenotypes ?? []) expect(phenotypes, `${name} ${p}`).toContain(p);
        for (const a of rule.alleles ?? []) expect(alleles, `${name} ${a}`).toContain(a);
        expect(data.medicines.guidelines[rule.pmid], `${name} ${rule.pmid}`).toMatch(/Clin Pharmacol Ther/);
        // Plain words, no figures of dose or risk (those are the prescriber's, from the guideline).
        expect(rule.text, `${name} ${rule.medicine}`).not.toMatch(/\d\s*(%|mg|fold|times)/);
      }
    }
  });

  it('follow a called diplotype, and say nothing when the phenotypes of the candidates differ', () => {
    const c19 = gene('CYP2C19');
    const pick = (n: string) => c19.alleles.find((a) => a.name === n)!;
    const index = new Map(c19.sites.map((site, i) => [site, i]));
    const poor = lettersOf(c19, pick('*2'), pick('*2'));
    const results = (letters: Map<number, string>) =>
      pharmacogenesFor(data, (site, chrom) => {
        if (chrom !== c19.chrom || !index.has(site)) return undefined;
        const g = letters.get(index.get(site)!);
        return g === undefined ? undefined : makeCall(alleleFromLetter(g[0]), alleleFromLetter(g[1]));
      }).find((r) => r.gene === 'CYP2C19')!;
    const called = results(poor);
    expect([called.status, called.phenotype]).toEqual(['called', 'Poor Metabolizer']);
    expect(called.medicines.map((m) => m.medicine)).toEqual(expect.arrayContaining(['clopidogrel', 'voriconazole']));
    // rs4244285 alone, heterozygous: *1/*2 (intermediate) fits, and so does *2/*3 (poor), its position unread.
    const rs4244285 = c19.sites.findIndex((site) => site.rsid === 4244285);
    const partial = new Map([[rs4244285, 'AG']]);
    const uncertain = results(partial);
    expect(uncertain.phenotypes_agree).toBe(false);
    expect(uncertain.medicines).toEqual([]);
  });
});

describe('drug–gene results from vendor files', () => {
  const markers = markersFor(PICKS);
  const files: Record<string, string> = {
    '23andMe': vendorFile('23andme', markers, 'full'),
    AncestryDNA: vendorFile('ancestrydna', markers, 'full'),
    FamilyTreeDNA: vendorFile('ftdna', markers),
    MyHeritage: [
      '##fileformat=MHv1.0',
      '##format=MyHeritage',
      '##reference=build37',
      '# MyHeritage DNA raw data.',
      'RSID,CHROMOSOME,POSITION,RESULT',
      ...markers.map((m) => `"rs${m.rsid}","${m.chrom}","${m.pos}","${m.genotype}"`),
    ].join('\n'),
    VCF: [
      '##fileformat=VCFv4.2',
      '##reference=GRCh37',
      '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
      ...markers.map((m) => {
        const [x, y] = m.genotype;
        const alt = x === y ? (x === 'A' ? 'C' : 'A') : y;
        const gt = x === y ? '0/0' : '0/1';
        return `${m.chrom}\t${m.pos}\trs${m.rsid}\t${x}\t${alt}\t50\tPASS\t.\tGT\t${gt}`;
      }),
    ].join('\n'),
  };
  for (const [vendor, text] of Object.entries(files)) {
    it(`reads CYP2C19 *1/*2, SLCO1B1 *1/*5, CYP2C9 *1/*3 and TPMT *1/*3A from a ${vendor} file`, async () => {
      const parsed = await parseGenotypeBytes(new TextEncoder().encode(text + '\n'));
      if (!parsed.ok) throw new Error(parsed.reason);
      const results = resultsOf(parsed.genotype, parsed.summary.build);
      expect(results.get('CYP2C19')!.diplotype).toBe('*1/*2');
      expect(results.get('CYP2C9')!.candidates).toContain('*1/*3');
      expect(results.get('TPMT')!.candidates).toEqual(expect.arrayContaining(['*1/*3A', '*3B/*3C']));
      expect(results.get('SLCO1B1')!.diplotype).toBe('*1/*5');
      expect(results.get('CYP2D6')!.status).toBe('not_determinable');
      expect(results.get('CYP2C19')!.medicines.map((m) => m.medicine)).toContain('clopidogrel');
    });
  }

  it('reads by GRCh38 or GRCh37 position where the file stores the marker under another id', () => {
    // Markers stored without the definitions' rsIDs (ids the definitions do not use), as a
    // GRCh38 VCF without rsIDs would give them once the parser keeps such lines.
    for (const build of [37, 38] as const) {
      const shifted = markersFor(PICKS).map((m, i) => {
        const def = CALLABLE.find((d) => d.sites.some((s) => s.rsid === m.rsid))!;
        const site = def.sites.find((s) => s.rsid === m.rsid)!;
        return { ...m, rsid: 3_000_000_000 + i, pos: build === 38 ? site.pos38 : site.pos37! };
      });
      const genotype = genotypeOfMarkers(shifted);
      const results = resultsOf(genotype, build);
      expect(results.get('CYP2C19')!.diplotype, `GRCh${build}`).toBe('*1/*2');
      expect(results.get('SLCO1B1')!.diplotype, `GRCh${build}`).toBe('*1/*5');
      // Without a known build, positions are not guessed at.
      expect(resultsOf(genotype, null).get('CYP2C19')!.status).toBe('not_tested');
    }
  });
});

function genotypeOfMarkers(markers: Marker[]): Genotype {
  const sorted = [...markers].sort((a, b) => a.rsid - b.rsid);
  return {
    rsids: Uint32Array.from(sorted, (m) => m.rsid),
    calls: Uint8Array.from(sorted, (m) => makeCall(alleleFromLetter(m.genotype[0]), alleleFromLetter(m.genotype[1]))),
    chroms: Uint8Array.from(sorted, (m) => m.chrom),
    positions: Uint32Array.from(sorted, (m) => m.pos),
  };
}
