/**
 * Single-variant findings: a few well-studied variants that a consumer chip reads directly
 * (APOE ε, Factor V Leiden, HFE C282Y/H63D, lactase persistence, ALDH2). Each finding is a
 * small curated table of qualitative statements, every one with the PubMed id it rests on,
 * and a function from the person's genotype calls to the statements that apply.
 *
 * No numbers are invented here: the few risk figures are those of the cited studies, and
 * the reliability of a call is computed from 1000 Genomes frequencies and a stated
 * genotyping error rate (GENOTYPING_ERROR_RATE, docs/science.md). Alleles
 * are given on the GRCh37 forward strand (checked against the 1000 Genomes REF/ALT in
 * ../shared/data/impute-me/DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz) and matched
 * with the scoring's own rules (match.ts): complement for non-palindromic markers, direct
 * only for palindromic ones. Missing markers, no-calls, single letters (every marker here is
 * on an autosome, where a person has two copies) and calls that fit neither allele are
 * reported as such, never guessed.
 */
import type { Population } from '../../shared/populations.js';
import { POPULATIONS } from '../../shared/populations.js';
import { alleleFromLetter, callToString } from '../genotype/encoding.js';
import { FINDING_VARIANT_FREQUENCIES, KG_SAMPLE_SIZES } from './finding-frequencies.js';
import { DOSAGE_MISMATCH, DOSAGE_MISSING, FLIPPED, matchDosage } from './match.js';

/** One sentence and the study it comes from. */
export interface FindingStatement {
  text: string;
  pmid: string;
  /** About a disease or cancer: shown only to people who chose to see those. */
  clinical: boolean;
}

export interface FindingMarker {
  rsid: string;
  /** What the marker tells: e.g. "ε4-defining allele C". */
  role: string;
  /** The call as written in the file ("CT"), "--" for a no-call, null when the file lacks the marker. */
  genotype: string | null;
  /** Copies of the variant allele, or null when missing, not called or not matching. */
  copies: number | null;
  /** missing: not in the file; no_call: in the file without a call; mismatch: alleles fit neither variant allele. */
  state: 'called' | 'missing' | 'no_call' | 'mismatch';
  /** Read on the opposite strand (complement letters). */
  strand_flipped: boolean;
  /** How far a call of the variant can be trusted in the person's reference; null when no copy was called. */
  reliability: CallReliability | null;
}

/**
 * The chance that a chip call of the variant is right (positive predictive value), from the
 * variant's frequency in the person's reference population and an assumed error rate.
 */
export interface CallReliability {
  /** The reference population, in words (e.g. "East Asian (EAS)"). */
  population: string;
  /** Frequency of the variant allele in that reference (1000 Genomes phase 3). */
  frequency: number;
  /** False when 1000 Genomes did not see the allele in (part of) the reference: half a copy among its chromosomes is used. */
  frequency_observed: boolean;
  /** Genotyping error rate assumed per call (GENOTYPING_ERROR_RATE). */
  error_rate: number;
  /** P(carrier | carrier call) = c(1 − e) / (c(1 − e) + (1 − c)e), c = 1 − (1 − frequency)². */
  positive_predictive_value: number;
}

/** Something about the reading that a person (and a client) must not miss. */
export interface FindingFlag {
  /**
   * single_letter_call: a lone letter on an autosome, read as a no-call; implausible_combination:
   * the calls together are very unlikely (a reading error is more likely); rare_in_reference:
   * the variant is rarer than 1 % in the person's reference, so a call of it is less reliable.
   */
  code: 'single_letter_call' | 'implausible_combination' | 'rare_in_reference';
  text: string;
}

export type FindingCode = 'apoe' | 'factor_v_leiden' | 'hfe' | 'lactase_persistence' | 'aldh2';

export interface Finding {
  code: FindingCode;
  name: string;
  gene: string;
  /** About a disease risk: shown only after the person opted in to disease and cancer results. */
  clinical: boolean;
  /** determined: every marker read; partial: some; not_tested: none could be read. */
  status: 'determined' | 'partial' | 'not_tested';
  /** The short answer, e.g. "ε3/ε4" or "One copy of Factor V Leiden"; null when not tested. */
  result: string | null;
  /** One or two plain sentences saying what was found (or why nothing could be). */
  summary: string;
  markers: FindingMarker[];
  /** What the result is associated with, each with its PMID. */
  statements: FindingStatement[];
  /** What this chip result can and cannot tell, each with its PMID. */
  limits: FindingStatement[];
  /** Single letters, implausible combinations and variants rare in the person's reference. */
  flags: FindingFlag[];
}

/** The reference population the person's results are compared with (reference-population.ts). */
export interface FindingReference {
  label: string;
  weights: Record<Population, number>;
}

/**
 * Genotyping error rate assumed for one chip call when judging how reliable a call of a rare
 * variant is. Stated, not measured: array error rates are commonly put at about 1 in 1,000
 * calls, and far higher for the rarest variants (Weedon et al. 2021, PMID 33589468).
 */
export const GENOTYPING_ERROR_RATE = 1e-3;
/** A variant allele rarer than this in the person's reference gets the rare_in_reference flag. */
export const RARE_IN_REFERENCE = 0.01;

/** The person's call for an rsID: a call byte (0 = no-call) or undefined when the file lacks it. */
export type CallLookup = (rsid: number) => number | undefined;

// ---- Citations ----------------------------------------------------------------------

/** Every PubMed id used, with the paper, so docs and tests can list and check them. */
export const FINDING_SOURCES: Record<string, string> = {
  '8346443':
    'Corder EH et al. Gene dose of apolipoprotein E type 4 allele and the risk of Alzheimer’s disease in late onset families. Science 1993.',
  '7920638':
    'Corder EH et al. Protective effect of apolipoprotein E type 2 allele for late onset Alzheimer disease. Nat Genet 1994.',
  '9343467':
    'Farrer LA et al. Effects of age, sex, and ethnicity on the association between apolipoprotein E genotype and Alzheimer disease: a meta-analysis. JAMA 1997.',
  '8164741':
    'Bertina RM et al. Mutation in blood coagulation factor V associated with resistance to activated protein C. Nature 1994.',
  '8696333':
    'Feder JN et al. A novel MHC class I-like gene is mutated in patients with hereditary haemochromatosis. Nat Genet 1996.',
  '18199861': 'Allen KJ et al. Iron-overload-related disease in HFE hereditary hemochromatosis. N Engl J Med 2008.',
  '20471131':
    'European Association for the Study of the Liver. EASL clinical practice guidelines for HFE hemochromatosis. J Hepatol 2010.',
  '11788828': 'Enattah NS et al. Identification of a variant associated with adult-type hypolactasia. Nat Genet 2002.',
  '17159977':
    'Tishkoff SA et al. Convergent adaptation of human lactase persistence in Africa and Europe. Nat Genet 2007.',
  '19320537':
    'Brooks PJ et al. The alcohol flushing response: an unrecognized risk factor for esophageal cancer from alcohol consumption. PLoS Med 2009.',
  '33589468':
    'Weedon MN et al. Use of SNP chips to detect rare pathogenic variants: retrospective, population based diagnostic evaluation. BMJ 2021.',
  '7888671':
    'Rosendaal FR et al. High risk of thrombosis in patients homozygous for factor V Leiden (activated protein C resistance). Blood 1995.',
  '21556001':
    'Genin E et al. APOE and Alzheimer disease: a major gene with semi-dominant inheritance. Mol Psychiatry 2011.',
  '10552997':
    'Mahley RW, Huang Y, Rall SC Jr. Pathogenesis of type III hyperlipoproteinemia (dysbetalipoproteinemia): questions, quandaries, and paradoxes. J Lipid Res 1999.',
  '26432245':
    '1000 Genomes Project Consortium (Auton A et al.). A global reference for human genetic variation. Nature 2015.',
  '29565420':
    'Tandy-Connor S et al. False-positive results released by direct-to-consumer genetic tests highlight the importance of clinical confirmation testing. Genet Med 2018.',
};

const say = (text: string, pmid: string, clinical = false): FindingStatement => ({ text, pmid, clinical });

/** What every chip-read finding shares. */
const CHIP_LIMITS = (gene: string): FindingStatement[] => [
  say(
    `A consumer chip reads a few chosen positions. It cannot rule out other variants in ${gene}: only sequencing can.`,
    '33589468',
  ),
  say(
    'Raw data from consumer tests is sometimes wrong. Before any medical decision, have the result confirmed by a clinical laboratory.',
    '29565420',
  ),
];

// ---- Markers ------------------------------------------------------------------------

interface VariantSpec {
  rsid: number;
  /** The variant allele counted, forward strand GRCh37. */
  variant: string;
  /** The other allele, forward strand GRCh37. */
  other: string;
  role: string;
  /** The variant in words, for sentences ("Factor V Leiden", "the ε4 allele"). */
  name: string;
}

/** A call of one letter: allele2 empty (encoding.ts). On an autosome that is no genotype at all. */
const isSingleLetter = (call: number) => call !== 0 && (call & 0xf) === 0;

function readMarker(lookup: CallLookup, spec: VariantSpec): FindingMarker {
  const rsid = `rs${spec.rsid}`;
  const call = lookup(spec.rsid);
  const unread = { rsid, role: spec.role, copies: null, strand_flipped: false, reliability: null };
  if (call === undefined) return { ...unread, genotype: null, state: 'missing' };
  const genotype = callToString(call);
  // Every finding's markers lie on autosomes: one letter is a malformed or deletion call, never two copies.
  if (isSingleLetter(call)) return { ...unread, genotype, state: 'no_call' };
  const dosage = matchDosage(call, alleleFromLetter(spec.variant), alleleFromLetter(spec.other));
  if (dosage === DOSAGE_MISSING) return { ...unread, genotype, state: 'no_call' };
  if (dosage === DOSAGE_MISMATCH) return { ...unread, genotype, state: 'mismatch' };
  const flipped = dosage >= FLIPPED;
  return {
    rsid,
    role: spec.role,
    genotype,
    copies: flipped ? dosage - FLIPPED : dosage,
    state: 'called',
    strand_flipped: flipped,
    reliability: null,
  };
}

/**
 * Frequency of a variant allele in a reference (a population or a mixture): Σ wₖ pₖ, where an
 * allele 1000 Genomes did not see in population k counts as half a copy among its 2Nₖ
 * chromosomes (it may exist there, rarer than the sample can show).
 */
function referenceFrequency(rsid: string, ref: FindingReference): { frequency: number; observed: boolean } {
  const freqs = FINDING_VARIANT_FREQUENCIES[rsid];
  let frequency = 0;
  let observed = true;
  for (const p of POPULATIONS) {
    const w = ref.weights[p];
    if (!(w > 0)) continue;
    const seen = freqs[p] > 0;
    if (!seen) observed = false;
    frequency += w * (seen ? freqs[p] : 0.5 / (2 * KG_SAMPLE_SIZES[p]));
  }
  return { frequency, observed };
}

/** Positive predictive value of a carrier call at allele frequency f and error rate e (CallReliability). */
export function carrierCallPpv(frequency: number, errorRate = GENOTYPING_ERROR_RATE): number {
  const carriers = 1 - (1 - frequency) ** 2;
  const right = carriers * (1 - errorRate);
  return right / (right + (1 - carriers) * errorRate);
}

function reliabilityOf(rsid: string, ref: FindingReference): CallReliability {
  const { frequency, observed } = referenceFrequency(rsid, ref);
  return {
    population: ref.label,
    frequency,
    frequency_observed: observed,
    error_rate: GENOTYPING_ERROR_RATE,
    positive_predictive_value: carrierCallPpv(frequency),
  };
}

const percentText = (x: number) => `${x >= 0.1 ? Math.round(100 * x) : (100 * x).toPrecision(1)} %`;

/** The flag and the limit sentence for a variant called in a reference where it is rare. */
function rareInReference(spec: VariantSpec, m: FindingMarker): { flag: FindingFlag; limit: FindingStatement } {
  const r = m.reliability!;
  const seen = r.frequency_observed
    ? `about ${percentText(r.frequency)} of chromosomes carry it in 1000 Genomes`
    : `1000 Genomes did not see it in (part of) this reference, so it is taken at half a copy among the sample's chromosomes (${percentText(r.frequency)})`;
  const text = `${spec.name} is rare in your reference population, ${r.population}: ${seen}. If a chip misreads 1 genotype in ${Math.round(1 / r.error_rate).toLocaleString('en-US')} (an assumed error rate), a call of it at ${m.rsid} is right only about ${percentText(r.positive_predictive_value)} of the time. Have it confirmed by a clinical laboratory before acting on it.`;
  return { flag: { code: 'rare_in_reference', text }, limit: say(text, '33589468') };
}

/** Why a marker gave no answer, in words. */
function unreadable(m: FindingMarker): string {
  if (m.state === 'missing') return `${m.rsid} is not in your file`;
  if (m.state === 'no_call' && m.genotype && m.genotype.length === 1)
    return `${m.rsid} reads the single letter ${m.genotype}, which on an autosome is not a genotype (treated as a no-call)`;
  if (m.state === 'no_call') return `${m.rsid} is in your file without a result (a no-call)`;
  return `${m.rsid} reads ${m.genotype}, which fits neither expected allele`;
}

function statusOf(markers: FindingMarker[]): Finding['status'] {
  const read = markers.filter((m) => m.copies !== null).length;
  return read === markers.length ? 'determined' : read === 0 ? 'not_tested' : 'partial';
}

const copiesText = (n: number, what: string) =>
  n === 0 ? `No copy of ${what}` : n === 1 ? `One copy of ${what}` : `Two copies of ${what}`;

/** "one copy" or "two copies", for a sentence that goes on to say of what. */
const copyCount = (n: number) => (n === 1 ? 'one copy' : 'two copies');

// ---- The findings ---------------------------------------------------------------------

/** What a finding says once its markers are read: `copies` in the order of its markers. */
type Reading = Pick<Finding, 'result' | 'summary' | 'statements'> & { flags?: FindingFlag[] };

interface FindingSpec {
  code: FindingCode;
  name: string;
  gene: string;
  /** The autosome the markers lie on. */
  chromosome: number;
  clinical: boolean;
  markers: VariantSpec[];
  limits: FindingStatement[];
  /** Every marker is needed for an answer: what to say when one cannot be read. */
  needsEvery?: (unread: string) => string;
  /** The answer from the markers read (at least one; all of them with needsEvery). */
  read: (copies: Array<number | null>, markers: FindingMarker[]) => Reading;
}

/** ε genotype from the ε4-defining (rs429358 C) and ε2-defining (rs7412 T) allele counts, unphased. */
/**
 * The reading of a finding with one marker whose allele a person carries or not: how many
 * copies, and what is said for carriers and for everyone else.
 */
function carrierReading(o: {
  allele: string;
  rsid: string;
  /** The result with no copy (default: "No copy of <allele>"). */
  noCopyResult?: string;
  /** Adds "(on both chromosomes)" to two copies. */
  saysBothChromosomes?: boolean;
  /** What is said to carriers of n (1 or 2) copies. */
  carrier: (n: number) => FindingStatement[];
  nonCarrier?: () => FindingStatement[];
}): FindingSpec['read'] {
  return ([n]) => ({
    result: n === 0 && o.noCopyResult ? o.noCopyResult : copiesText(n!, o.allele),
    summary:
      n === 0
        ? `Your file shows no copy of ${o.allele} at ${o.rsid}.`
        : `Your file shows ${copyCount(n!)} of ${o.allele} at ${o.rsid}${o.saysBothChromosomes && n === 2 ? ' (on both chromosomes)' : ''}.`,
    statements: n! > 0 ? o.carrier(n!) : (o.nonCarrier?.() ?? []),
  });
}

const APOE_GENOTYPES: Record<string, string> = {
  '0,0': 'ε3/ε3',
  '0,1': 'ε2/ε3',
  '0,2': 'ε2/ε2',
  '1,0': 'ε3/ε4',
  '1,1': 'ε2/ε4',
  '2,0': 'ε4/ε4',
};

function readApoe([e4, e2]: Array<number | null>, markers: FindingMarker[]): Reading {
  const genotype = APOE_GENOTYPES[`${e4},${e2}`];
  if (!genotype) {
    const summary = `rs429358 and rs7412 together read as a combination that needs the very rare ε1 allele (${markers.map((m) => `${m.rsid} ${m.genotype}`).join(', ')}). A reading error is more likely; a clinical test can tell.`;
    return {
      result: 'Unusual combination',
      summary,
      statements: [],
      flags: [{ code: 'implausible_combination', text: summary }],
    };
  }
  const statements: FindingStatement[] = [];
  if (e4! > 0)
    statements.push(
      say(
        'The ε4 allele is associated with a higher risk of late-onset Alzheimer’s disease, and two copies with a higher risk than one.',
        '8346443',
        true,
      ),
    );
  // Absolute figures: Genin et al. 2011 (people of European ancestry, Rochester incidence data).
  if (genotype === 'ε4/ε4')
    statements.push(
      say(
        'In a study of people of European ancestry, the lifetime risk of Alzheimer’s disease by age 85 was about 51 % for men and 60 % for women with ε4/ε4, against about 11 % and 14 % for men and women whatever their APOE genotype.',
        '21556001',
        true,
      ),
    );
  if (genotype === 'ε3/ε4')
    statements.push(
      say(
        'In a study of people of European ancestry, the lifetime risk of Alzheimer’s disease by age 85 was about 23 % for men and 30 % for women with ε3/ε4, against about 11 % and 14 % for men and women whatever their APOE genotype.',
        '21556001',
        true,
      ),
    );
  if (genotype === 'ε2/ε2')
    statements.push(
      say(
        'Most people with type III hyperlipoproteinaemia (familial dysbetalipoproteinaemia), a disorder of blood fats that raises the risk of heart and vascular disease, have ε2/ε2. Only a minority of people with ε2/ε2 develop it, usually when another factor adds to it; a blood lipid test can tell.',
        '10552997',
        true,
      ),
    );
  if (e2! > 0 && e4 === 0)
    statements.push(
      say('The ε2 allele is associated with a lower risk of late-onset Alzheimer’s disease than ε3.', '7920638', true),
    );
  if (e4 === 0 && e2 === 0)
    statements.push(
      say(
        'ε3/ε3 is the most common genotype; the risks of the other genotypes are measured against it.',
        '9343467',
        true,
      ),
    );
  statements.push(
    say(
      'How strong the association is differs with age, sex and ancestry. It is a change in risk, not a diagnosis: many people with ε4 never develop Alzheimer’s disease.',
      '9343467',
      true,
    ),
  );
  const note = genotype === 'ε2/ε4' ? ' (unphased chip data cannot tell it from the very rare ε1/ε3)' : '';
  return {
    result: genotype,
    summary: `Your APOE genotype reads as ${genotype}${note}: ${e4 === 0 ? 'no ε4 allele' : e4 === 1 ? 'one ε4 allele' : 'two ε4 alleles'}.`,
    statements,
  };
}

/** What HFE's C282Y (c) and H63D (h) copies say; the statement for the most telling combination. */
function hfeStatement(c: number | null, h: number | null): FindingStatement | undefined {
  if (c === 1 && h === 1)
    return say(
      'One C282Y and one H63D copy (compound heterozygosity) rarely leads to iron-overload disease.',
      '20471131',
      true,
    );
  if (c === 1)
    return say(
      'One copy of C282Y alone makes you a carrier; carriers are not expected to develop haemochromatosis from it.',
      '20471131',
      true,
    );
  if (h === 2) return say('Two copies of H63D rarely lead to iron-overload disease.', '20471131', true);
  if (h === 1) return say('H63D is a common variant with little effect on iron on its own.', '20471131', true);
  return undefined;
}

function readHfe([c, h]: Array<number | null>, markers: FindingMarker[]): Reading {
  if ((c ?? 0) + (h ?? 0) >= 3) {
    // C282Y and H63D lie on different chromosomes in practice: three or four risk alleles over the two sites need both on one.
    const summary = `Your file reads ${markers.map((m) => `${m.rsid} ${m.genotype}`).join(' and ')}: ${c} ${c === 1 ? 'copy' : 'copies'} of C282Y and ${h} of H63D. That needs both variants on the same chromosome, which is almost never seen; a reading error is more likely. A clinical test can tell.`;
    return {
      result: 'Unusual combination',
      summary,
      statements: [],
      flags: [{ code: 'implausible_combination', text: summary }],
    };
  }
  const statements =
    c === 2
      ? [
          say(
            'Two copies of C282Y is the genotype found in most people with hereditary haemochromatosis (iron overload) of northern European descent.',
            '8696333',
            true,
          ),
          say(
            'Many people with two copies of C282Y never develop iron-overload disease; it is more common in men than in women.',
            '18199861',
            true,
          ),
        ]
      : [hfeStatement(c, h)].filter((x) => x !== undefined);
  const parts: string[] = [];
  if (c !== null) parts.push(copiesText(c, 'C282Y'));
  if (h !== null) parts.push(copiesText(h, 'H63D'));
  const missing = markers.filter((m) => m.copies === null);
  return {
    result: c === 0 && h === 0 ? 'Neither variant found' : parts.join(', '),
    summary: `Your file shows ${parts.map((p) => p.charAt(0).toLowerCase() + p.slice(1)).join(' and ')}.${missing.length ? ` The other variant could not be read: ${missing.map(unreadable).join('; ')}.` : ''}`,
    statements,
  };
}

const FINDINGS: FindingSpec[] = [
  {
    code: 'apoe',
    name: 'APOE ε genotype',
    gene: 'APOE',
    chromosome: 19,
    clinical: true,
    markers: [
      { rsid: 429358, variant: 'C', other: 'T', role: 'ε4-defining allele C', name: 'The ε4 allele' },
      { rsid: 7412, variant: 'T', other: 'C', role: 'ε2-defining allele T', name: 'The ε2 allele' },
    ],
    limits: CHIP_LIMITS('APOE'),
    needsEvery: (unread) =>
      `The ε genotype needs both rs429358 and rs7412, and ${unread}. Without both, no ε genotype can be given.`,
    read: readApoe,
  },
  {
    code: 'factor_v_leiden',
    name: 'Factor V Leiden',
    gene: 'F5',
    chromosome: 1,
    clinical: true,
    markers: [
      { rsid: 6025, variant: 'T', other: 'C', role: 'Factor V Leiden allele T (R506Q)', name: 'Factor V Leiden' },
    ],
    limits: CHIP_LIMITS('F5 and the other clotting genes'),
    read: carrierReading({
      allele: 'Factor V Leiden',
      rsid: 'rs6025',
      saysBothChromosomes: true,
      carrier: (n) => [
        say(
          'Factor V Leiden makes factor V resistant to activated protein C, a natural anticoagulant, and is associated with a higher risk of blood clots in the veins (venous thrombosis).',
          '8164741',
          true,
        ),
        n === 2
          ? say(
              'Two copies (homozygous) carry a far higher risk than one: in the Leiden Thrombophilia Study, the risk of venous thrombosis was about 80 times that of non-carriers with two copies, against about 7 times with one. A doctor should know of it.',
              '7888671',
              true,
            )
          : say(
              'One copy (heterozygous): in the Leiden Thrombophilia Study, the risk of venous thrombosis was about 7 times that of non-carriers; most carriers never have a clot.',
              '7888671',
              true,
            ),
      ],
    }),
  },
  {
    code: 'hfe',
    name: 'HFE haemochromatosis variants (C282Y, H63D)',
    gene: 'HFE',
    chromosome: 6,
    clinical: true,
    markers: [
      { rsid: 1800562, variant: 'A', other: 'G', role: 'C282Y allele A', name: 'C282Y' },
      // C/G is palindromic: read on the forward strand only, as the scoring does.
      { rsid: 1799945, variant: 'G', other: 'C', role: 'H63D allele G', name: 'H63D' },
    ],
    limits: CHIP_LIMITS('HFE'),
    read: readHfe,
  },
  {
    code: 'lactase_persistence',
    name: 'Lactase persistence (digesting milk as an adult)',
    gene: 'LCT/MCM6',
    chromosome: 2,
    clinical: false,
    // −13910 C>T upstream of LCT, in MCM6; the T on the gene's strand is A on the forward strand.
    markers: [
      {
        rsid: 4988235,
        variant: 'A',
        other: 'G',
        role: 'lactase persistence allele A (−13910*T)',
        name: 'The −13910*T allele',
      },
    ],
    limits: [
      say(
        'In many African and Middle Eastern populations other variants near LCT give lactase persistence; this chip marker does not see them.',
        '17159977',
      ),
      ...CHIP_LIMITS('LCT and MCM6'),
    ],
    read: ([n]) => ({
      result: n! > 0 ? 'Likely lactase persistent' : 'No European lactase-persistence allele',
      summary:
        n! > 0
          ? `Your file shows ${copyCount(n!)} of the −13910*T allele at rs4988235: one copy is enough for lactase to stay active into adulthood.`
          : 'Your file shows no copy of the −13910*T allele at rs4988235.',
      statements: [
        n! > 0
          ? say(
              'The −13910*T allele is associated with lactase persistence: the ability to digest milk sugar as an adult.',
              '11788828',
            )
          : say(
              'Without the −13910*T allele, people of European ancestry are usually lactase non-persistent (lactose intolerant as adults).',
              '11788828',
            ),
      ],
    }),
  },
  {
    code: 'aldh2',
    name: 'ALDH2 alcohol flush',
    gene: 'ALDH2',
    chromosome: 12,
    clinical: false,
    markers: [{ rsid: 671, variant: 'A', other: 'G', role: 'ALDH2*2 allele A (E504K)', name: 'ALDH2*2' }],
    limits: CHIP_LIMITS('ALDH2'),
    read: carrierReading({
      allele: 'ALDH2*2',
      rsid: 'rs671',
      noCopyResult: 'No ALDH2*2',
      carrier: () => [
        say(
          'ALDH2*2 lowers the activity of the enzyme that clears acetaldehyde, which causes facial flushing after alcohol.',
          '19320537',
        ),
        say(
          'People with ALDH2*2 who drink alcohol regularly have a higher risk of oesophageal cancer than those without it.',
          '19320537',
          true,
        ),
      ],
      nonCarrier: () => [say('Without ALDH2*2, the alcohol flush caused by this variant is not expected.', '19320537')],
    }),
  },
];

/** One finding for one genotype: its markers read, then its answer, or why there is none. */
function evaluate(spec: FindingSpec, lookup: CallLookup, reference: FindingReference | null): Finding {
  const markers = spec.markers.map((m) => readMarker(lookup, m));
  const copies = markers.map((m) => m.copies);
  const { code, name, gene, clinical } = spec;
  const status = statusOf(markers);
  const unread = markers.filter((m) => m.copies === null).map(unreadable);
  const { flags = [], ...answer }: Reading =
    spec.needsEvery && unread.length > 0
      ? { result: null, summary: spec.needsEvery(unread.join('; ')), statements: [] }
      : unread.length === markers.length
        ? { result: null, summary: `Not determined: ${unread.join('; ')}.`, statements: [] }
        : spec.read(copies, markers);
  const all: FindingFlag[] = [];
  const limits = [...spec.limits];
  markers.forEach((m, i) => {
    if (m.state === 'no_call' && m.genotype?.length === 1)
      all.push({
        code: 'single_letter_call',
        text: `${m.rsid} reads the single letter ${m.genotype}. ${spec.gene} lies on chromosome ${spec.chromosome}, of which everyone has two copies, so one letter is a malformed or deletion call: it is read as a no-call, not as two copies.`,
      });
    if (reference && m.copies !== null && m.copies > 0) {
      m.reliability = reliabilityOf(m.rsid, reference);
      if (m.reliability.frequency < RARE_IN_REFERENCE) {
        const rare = rareInReference(spec.markers[i], m);
        all.push(rare.flag);
        limits.unshift(rare.limit);
      }
    }
  });
  all.push(...flags);
  return { code, name, gene, clinical, markers, limits, status, ...answer, flags: all };
}

/** Every finding's variant and its other allele (forward strand GRCh37): the frequency table is built for these. */
export const FINDING_VARIANTS: ReadonlyArray<Pick<VariantSpec, 'rsid' | 'variant' | 'other'>> = FINDINGS.flatMap((f) =>
  f.markers.map(({ rsid, variant, other }) => ({ rsid, variant, other })),
);

/** Genes with findings and the rsIDs read for each: the gene search of the UI starts here. */
export const FINDING_GENES: Record<string, string[]> = Object.fromEntries(
  FINDINGS.flatMap((f) => f.gene.split('/').map((gene) => [gene, f.markers.map((m) => `rs${m.rsid}`)])),
);

/**
 * Every finding for one genotype, in a fixed order. With the person's reference population,
 * each called variant says how reliable its call is there (CallReliability).
 */
export function findingsFor(lookup: CallLookup, reference: FindingReference | null = null): Finding[] {
  return FINDINGS.map((spec) => evaluate(spec, lookup, reference));
}
