/**
 * Calling drug–gene diplotypes from an unphased consumer genotype, honestly
 * (docs/pharmacogenes.md). PharmCAT's rule holds throughout: a position missing from the
 * file, or present without a usable call, is never taken as the reference allele. Every
 * pair of named alleles that fits what the file shows is a candidate; a result is `called`
 * only when exactly one fits.
 */
import { ALLELE_DEL, ALLELE_INS, definedAlleleIndex } from '../../genotype/encoding.js';
import type { PharmacogeneDefinition, PharmacogeneSite } from './table.js';

/** The call byte (encoding.ts) the file holds for a site, or undefined when the file lacks it. */
export type SiteReader = (site: PharmacogeneSite, chrom: number) => number | undefined;

export type PharmacogeneStatus = 'called' | 'ambiguous' | 'not_determinable' | 'not_tested';

export interface PositionRead {
  rsid: string | null;
  grch38: number;
  grch37: number | null;
  /** As in the file ("AG"; "--" for a no-call); null when the file lacks the position. */
  genotype: string | null;
  /** Read on the opposite strand (the letters were complemented to fit the definitions). */
  strand_flipped: boolean;
  /** Why a present position was not used, in plain words; null when it was read. */
  problem: string | null;
}

export interface VariantRead {
  /** The definitions' allele name, e.g. "c.1905+1G>A (*2A)". */
  allele: string;
  rsid: string | null;
  copies: 1 | 2;
  function: string | null;
  activity: string | null;
}

export interface PharmacogeneCall {
  gene: string;
  status: PharmacogeneStatus;
  diplotype: string | null;
  candidates: string[];
  phenotype: string | null;
  activity_score: string | null;
  /** The distinct phenotypes among the candidates (null where a candidate has no mapped phenotype). */
  candidate_phenotypes: (string | null)[];
  phenotypes_agree: boolean;
  /** Alleles in at least one candidate: what the file cannot rule out. */
  alleles_not_ruled_out: string[];
  /** Alleles none of whose own positions were read: the file cannot see them at all. */
  alleles_unseen: string[];
  positions: { read: PositionRead[]; missing: PositionRead[]; no_call: PositionRead[] };
  /** Non-reference variants read, each with its function (DPYD's convention); empty for other genes. */
  variants: VariantRead[];
  summary: string;
  versions: { definitions: string; phenotypes: string | null; modified: string; source: string };
}

/** Allele codes of encoding.ts (A=1, C=2, G=3, T=4) → one bit per base. */
const CODE_BIT = [0, 1, 2, 4, 8];
const BASE_BITS: Record<string, number> = {
  A: 1,
  C: 2,
  G: 4,
  T: 8,
  R: 1 | 4,
  Y: 2 | 8,
  S: 2 | 4,
  W: 1 | 8,
  K: 4 | 8,
  M: 1 | 2,
  B: 2 | 4 | 8,
  D: 1 | 4 | 8,
  H: 1 | 2 | 8,
  V: 1 | 2 | 4,
  N: 15,
};
const COMPLEMENT_BITS = (bits: number) => ((bits & 1) << 3) | ((bits & 8) >> 3) | ((bits & 2) << 1) | ((bits & 4) >> 1);
const LETTER = ['', 'A', 'C', 'G', 'T', 'D', 'I'];

/** A single base or IUPAC code → its bits; 0 for an indel or repeat (no chip letter reads it). */
function baseBits(base: string): number {
  return base.length === 1 ? (BASE_BITS[base] ?? 0) : 0;
}

/**
 * An insertion or deletion with one ALT is read from D/I letters, the shorter allele being D
 * (23andMe's convention, and how a VCF indel is read: docs/file-formats.md). Its REF has bit 1,
 * its ALT bit 2.
 */
const isTwoAlleleIndel = (site: PharmacogeneSite) => site.alts.length === 1 && site.ref.length !== site.alts[0].length;
const INDEL_REF_BIT = 1;
const INDEL_ALT_BIT = 2;

/**
 * An insertion or deletion with several ALTs (UGT1A1's TA repeat) is read from the
 * defined-allele codes a VCF record matched to one of its alleles gets (encoding.ts; the
 * position index lists the alleles in the definitions' order): allele k (0 = REF) has bit k.
 * D/I letters cannot say which allele is there.
 */
const isMultiAlleleIndel = (site: PharmacogeneSite) =>
  site.alts.length > 1 && site.alts.some((a) => a.length !== site.ref.length);

/** The bits of an allele's sequence at a site. */
function siteBits(site: PharmacogeneSite, base: string): number {
  if (isMultiAlleleIndel(site)) {
    const k = [site.ref, ...site.alts].indexOf(base);
    return k < 0 ? 0 : 1 << k;
  }
  if (!isTwoAlleleIndel(site)) return baseBits(base);
  return base === site.ref ? INDEL_REF_BIT : base === site.alts[0] ? INDEL_ALT_BIT : 0;
}

/** The bit of a defined-allele code at a multi-ALT indel site; 0 for any other code or an allele it lacks. */
function definedAlleleBit(site: PharmacogeneSite, code: number): number {
  const k = definedAlleleIndex(code);
  return k >= 0 && k <= site.alts.length ? 1 << k : 0;
}

/** The bits D or I stand for at a two-allele indel site; 0 for a base letter. */
function indelLetterBits(site: PharmacogeneSite, code: number): number {
  const refIsShorter = site.ref.length < site.alts[0].length;
  if (code === ALLELE_DEL) return refIsShorter ? INDEL_REF_BIT : INDEL_ALT_BIT;
  if (code === ALLELE_INS) return refIsShorter ? INDEL_ALT_BIT : INDEL_REF_BIT;
  return 0;
}

interface Observation {
  /** The two bases as bits, on the definitions' strand. */
  first: number;
  second: number;
}

function readSite(
  site: PharmacogeneSite,
  call: number | undefined,
): { obs: Observation | null; flipped: boolean; problem: string | null } {
  if (call === undefined) return { obs: null, flipped: false, problem: null };
  if (call === 0) return { obs: null, flipped: false, problem: 'The file has no call here.' };
  if (isTwoAlleleIndel(site)) {
    if ((call & 0xf) === 0)
      return { obs: null, flipped: false, problem: 'A single letter where two are expected on this chromosome.' };
    const first = indelLetterBits(site, call >> 4);
    const second = indelLetterBits(site, call & 0xf);
    if (!first || !second)
      return {
        obs: null,
        flipped: false,
        problem: 'Base letters where the definitions expect an insertion or deletion.',
      };
    return { obs: { first, second }, flipped: false, problem: null };
  }
  if (isMultiAlleleIndel(site)) {
    if ((call & 0xf) === 0)
      return { obs: null, flipped: false, problem: 'A single allele where two are expected on this chromosome.' };
    const first = definedAlleleBit(site, call >> 4);
    const second = definedAlleleBit(site, call & 0xf);
    if (first && second) return { obs: { first, second }, flipped: false, problem: null };
    if (definedAlleleIndex(call >> 4) >= 0 || definedAlleleIndex(call & 0xf) >= 0)
      return { obs: null, flipped: false, problem: 'An allele the definitions do not have at this position.' };
  }
  const allowed = [site.ref, ...site.alts].reduce((bits, b) => bits | baseBits(b), 0);
  if ([site.ref, ...site.alts].some((b) => baseBits(b) === 0))
    return {
      obs: null,
      flipped: false,
      problem: 'A repeat or indel with several ALT alleles: D/I letters cannot say which allele is there.',
    };
  const a1 = call >> 4;
  const a2 = call & 0xf;
  if (a2 === 0)
    return { obs: null, flipped: false, problem: 'A single letter where two are expected on this chromosome.' };
  const b1 = CODE_BIT[a1] ?? 0;
  const b2 = CODE_BIT[a2] ?? 0;
  if (!b1 || !b2)
    return { obs: null, flipped: false, problem: 'Insertion/deletion letters where the definitions expect bases.' };
  const fits = (x: number, y: number) => (x & allowed) === x && (y & allowed) === y;
  // Palindromic positions (A/T, C/G) fit both strands; they are read as given, on the forward
  // strand that consumer files use.
  if (fits(b1, b2)) return { obs: { first: b1, second: b2 }, flipped: false, problem: null };
  const c1 = COMPLEMENT_BITS(b1);
  const c2 = COMPLEMENT_BITS(b2);
  if (fits(c1, c2)) return { obs: { first: c1, second: c2 }, flipped: true, problem: null };
  return {
    obs: null,
    flipped: false,
    problem: `The letters fit neither strand of ${[site.ref, ...site.alts].join('/')}; treated as no call.`,
  };
}

/** Whether the named alleles x and y together explain the two bases read at a site. */
function pairFits(x: number, y: number, obs: Observation): boolean {
  return ((x & obs.first) !== 0 && (y & obs.second) !== 0) || ((x & obs.second) !== 0 && (y & obs.first) !== 0);
}

const rsName = (site: PharmacogeneSite) => (site.rsid === null ? null : `rs${site.rsid}`);

/** The call as letters; at a multi-ALT indel site, its defined alleles as sequences ("CAT/CATAT"). */
function callString(site: PharmacogeneSite, call: number | undefined): string | null {
  if (call === undefined) return null;
  if (call === 0) return '--';
  const alleles = [site.ref, ...site.alts];
  const k1 = definedAlleleIndex(call >> 4);
  const k2 = definedAlleleIndex(call & 0xf);
  if (k1 >= 0 && k1 < alleles.length && (call & 0xf) === 0) return alleles[k1];
  if (k1 >= 0 && k1 < alleles.length && k2 >= 0 && k2 < alleles.length) return `${alleles[k1]}/${alleles[k2]}`;
  return (LETTER[call >> 4] ?? '?') + (LETTER[call & 0xf] ?? '?');
}

/** What a definition alone decides, worked out once per definition (a definition is not changed once read). */
interface Prepared {
  /** Per allele, per site: the bits of its sequence there (siteBits). */
  alleleBits: number[][];
  /** Per allele: the sites where it differs from the reference allele; null for the reference itself. */
  ownSites: (number[] | null)[];
  /** reportAs name → index of its first allele: the definitions' order. */
  order: Map<string, number>;
  distinctAlleles: number;
}

const PREPARED = new WeakMap<PharmacogeneDefinition, Prepared>();

function prepared(def: PharmacogeneDefinition): Prepared {
  let p = PREPARED.get(def);
  if (p) return p;
  const refIndex = def.alleles.findIndex((a) => a.reference);
  const order = new Map<string, number>();
  def.alleles.forEach((a, i) => {
    if (!order.has(a.reportAs)) order.set(a.reportAs, i);
  });
  p = {
    alleleBits: def.alleles.map((a) => a.bases.map((b, s) => siteBits(def.sites[s], b))),
    ownSites: def.alleles.map((a, i) =>
      i === refIndex ? null : a.bases.map((_, s) => s).filter((s) => a.bases[s] !== def.alleles[refIndex].bases[s]),
    ),
    order,
    distinctAlleles: order.size,
  };
  PREPARED.set(def, p);
  return p;
}

export function callPharmacogene(def: PharmacogeneDefinition, read: SiteReader, source: string): PharmacogeneCall {
  const positions: PharmacogeneCall['positions'] = { read: [], missing: [], no_call: [] };
  const observations: (Observation | null)[] = [];
  def.sites.forEach((site) => {
    const call = read(site, def.chrom);
    const { obs, flipped, problem } = readSite(site, call);
    observations.push(obs);
    const entry: PositionRead = {
      rsid: rsName(site),
      grch38: site.pos38,
      grch37: site.pos37,
      genotype: callString(site, call),
      strand_flipped: flipped,
      problem,
    };
    if (call === undefined) positions.missing.push(entry);
    else if (obs) positions.read.push(entry);
    else positions.no_call.push(entry);
  });
  const versions = {
    definitions: def.definitionVersion,
    phenotypes: def.phenotypeVersion,
    modified: def.modificationDate,
    source,
  };
  const base = {
    gene: def.gene,
    diplotype: null,
    phenotype: null,
    activity_score: null,
    positions,
    versions,
  };
  if (def.notDeterminableReason)
    return {
      ...base,
      status: 'not_determinable',
      candidates: [],
      candidate_phenotypes: [],
      phenotypes_agree: false,
      alleles_not_ruled_out: [],
      alleles_unseen: [],
      variants: [],
      summary: def.notDeterminableReason,
    };
  const { alleleBits, ownSites, order, distinctAlleles } = prepared(def);
  const unseen = new Set<string>();
  def.alleles.forEach((a, i) => {
    const own = ownSites[i];
    if (own && own.length > 0 && own.every((s) => !observations[s])) unseen.add(a.reportAs);
  });
  if (positions.read.length === 0)
    return {
      ...base,
      status: 'not_tested',
      candidates: [],
      candidate_phenotypes: [],
      phenotypes_agree: false,
      alleles_not_ruled_out: def.alleles.map((a) => a.reportAs).filter((n, i, all) => all.indexOf(n) === i),
      alleles_unseen: [...unseen],
      variants: [],
      summary: `The file reads none of the ${def.sites.length} positions that define ${def.gene} alleles.`,
    };

  const readSites = observations.flatMap((o, s) => (o ? [s] : []));
  // An allele that carries neither base read at some position cannot be on either chromosome.
  const possible = def.alleles.flatMap((_, i) =>
    readSites.every((s) => (alleleBits[i][s] & (observations[s]!.first | observations[s]!.second)) !== 0) ? [i] : [],
  );
  const candidates = new Map<string, [string, string]>();
  for (let x = 0; x < possible.length; x++) {
    for (let y = x; y < possible.length; y++) {
      const i = possible[x];
      const j = possible[y];
      if (readSites.every((s) => pairFits(alleleBits[i][s], alleleBits[j][s], observations[s]!))) {
        const pair = [def.alleles[i].reportAs, def.alleles[j].reportAs].sort(
          (x, y) => order.get(x)! - order.get(y)!,
        ) as [string, string];
        candidates.set(pair.join('/'), pair);
      }
    }
  }
  const keys = [...candidates.keys()];
  const display = (key: string) => def.phenotypes[key]?.diplotype ?? key;
  const phenotypeOf = (key: string) => def.phenotypes[key]?.phenotype ?? null;
  const candidatePhenotypes = [...new Set(keys.map(phenotypeOf))];
  const agree = candidatePhenotypes.length === 1 && candidatePhenotypes[0] !== null;
  const scores = [...new Set(keys.map((k) => def.phenotypes[k]?.activityScore ?? null))];
  const notRuledOut = [...new Set(keys.flatMap((k) => candidates.get(k)!))].sort(
    (x, y) => order.get(x)! - order.get(y)!,
  );
  const variants = def.gene === 'DPYD' ? variantsRead(def, observations, prepared(def)) : [];
  const common = {
    ...base,
    candidates: keys.map(display),
    candidate_phenotypes: candidatePhenotypes,
    phenotypes_agree: agree,
    phenotype: agree ? candidatePhenotypes[0] : null,
    activity_score: agree && scores.length === 1 ? scores[0] : null,
    alleles_not_ruled_out: notRuledOut,
    alleles_unseen: [...unseen],
    variants,
  };
  const gaps = positions.missing.length + positions.no_call.length;
  const gapText =
    gaps === 0
      ? 'every defining position was read'
      : `${gaps} of ${def.sites.length} defining positions could not be read`;
  if (keys.length === 0)
    return {
      ...common,
      status: 'not_determinable',
      summary: `The letters read fit no pair of the named ${def.gene} alleles: a rare allele the definitions lack, or a reading error on the chip.`,
    };
  if (keys.length === 1)
    return {
      ...common,
      status: 'called',
      diplotype: display(keys[0]),
      summary: `${display(keys[0])}: the only pair of named alleles that fits (${gapText}).`,
    };
  if (keys.length === (distinctAlleles * (distinctAlleles + 1)) / 2 && !agree)
    return {
      ...common,
      status: 'not_determinable',
      summary: `Too little was read to tell ${def.gene} alleles apart (${gapText}): what was read rules out no pair of named alleles.`,
    };
  return {
    ...common,
    status: 'ambiguous',
    summary: `${keys.length} pairs of named alleles fit what was read (${gapText})${
      agree ? `; all of them mean ${candidatePhenotypes[0]}` : '; their phenotypes differ'
    }.`,
  };
}

/** DPYD's convention: each non-reference variant read, with its function and copies. */
function variantsRead(
  def: PharmacogeneDefinition,
  observations: (Observation | null)[],
  { alleleBits, ownSites }: Prepared,
): VariantRead[] {
  const found: VariantRead[] = [];
  for (const [i, allele] of def.alleles.entries()) {
    const own = ownSites[i];
    if (allele.reference || !own || own.length !== 1) continue;
    const s = own[0];
    const obs = observations[s];
    const bits = alleleBits[i][s];
    if (!obs || !bits) continue;
    const copies = ((obs.first & bits) !== 0 ? 1 : 0) + ((obs.second & bits) !== 0 ? 1 : 0);
    if (copies === 0) continue;
    found.push({
      allele: allele.name,
      rsid: rsName(def.sites[s]),
      copies: copies as 1 | 2,
      function: allele.function,
      activity: allele.activity,
    });
  }
  return found;
}
