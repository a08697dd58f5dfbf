/**
 * Single-variant findings: a few well-studied variants that a consumer chip reads directly
 * (APOE ε, Factor V Leiden, HFE C282Y/H63D, lactase persistence, ALDH2). Each finding is a
 * small curated table of qualitative statements, every one with the PubMed id it rests on,
 * and a function from the person's genotype calls to the statements that apply.
 *
 * No numbers are invented here: no risks, no odds ratios, no penetrance figures. Alleles
 * are given on the GRCh37 forward strand (checked against the 1000 Genomes REF/ALT in
 * ../shared/data/impute-me/DERIVED_1kg_phase3_superpop_ALT_AF_merged.tsv.gz) and matched
 * with the scoring's own rules (match.ts): complement for non-palindromic markers, direct
 * only for palindromic ones. Missing markers, no-calls and calls that fit neither allele
 * are reported as such, never guessed.
 */
import { alleleFromLetter, callToString } from '../genotype/encoding.js';
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
}

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
}

function readMarker(lookup: CallLookup, spec: VariantSpec): FindingMarker {
  const rsid = `rs${spec.rsid}`;
  const call = lookup(spec.rsid);
  if (call === undefined)
    return { rsid, role: spec.role, genotype: null, copies: null, state: 'missing', strand_flipped: false };
  const dosage = matchDosage(call, alleleFromLetter(spec.variant), alleleFromLetter(spec.other));
  const genotype = callToString(call);
  if (dosage === DOSAGE_MISSING)
    return { rsid, role: spec.role, genotype, copies: null, state: 'no_call', strand_flipped: false };
  if (dosage === DOSAGE_MISMATCH)
    return { rsid, role: spec.role, genotype, copies: null, state: 'mismatch', strand_flipped: false };
  const flipped = dosage >= FLIPPED;
  return {
    rsid,
    role: spec.role,
    genotype,
    copies: flipped ? dosage - FLIPPED : dosage,
    state: 'called',
    strand_flipped: flipped,
  };
}

/** Why a marker gave no answer, in words. */
function unreadable(m: FindingMarker): string {
  if (m.state === 'missing') return `${m.rsid} is not in your file`;
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
type Reading = Pick<Finding, 'result' | 'summary' | 'statements'>;

interface FindingSpec {
  code: FindingCode;
  name: string;
  gene: string;
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
  carrier: () => FindingStatement[];
  nonCarrier?: () => FindingStatement[];
}): FindingSpec['read'] {
  return ([n]) => ({
    result: n === 0 && o.noCopyResult ? o.noCopyResult : copiesText(n!, o.allele),
    summary:
      n === 0
        ? `Your file shows no copy of ${o.allele} at ${o.rsid}.`
        : `Your file shows ${copyCount(n!)} of ${o.allele} at ${o.rsid}${o.saysBothChromosomes && n === 2 ? ' (on both chromosomes)' : ''}.`,
    statements: n! > 0 ? o.carrier() : (o.nonCarrier?.() ?? []),
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
    return {
      result: 'Unusual combination',
      summary: `rs429358 and rs7412 together read as a combination that needs the very rare ε1 allele (${markers.map((m) => `${m.rsid} ${m.genotype}`).join(', ')}). A reading error is more likely; a clinical test can tell.`,
      statements: [],
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
    clinical: true,
    markers: [
      { rsid: 429358, variant: 'C', other: 'T', role: 'ε4-defining allele C' },
      { rsid: 7412, variant: 'T', other: 'C', role: 'ε2-defining allele T' },
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
    clinical: true,
    markers: [{ rsid: 6025, variant: 'T', other: 'C', role: 'Factor V Leiden allele T (R506Q)' }],
    limits: CHIP_LIMITS('F5 and the other clotting genes'),
    read: carrierReading({
      allele: 'Factor V Leiden',
      rsid: 'rs6025',
      saysBothChromosomes: true,
      carrier: () => [
        say(
          'Factor V Leiden makes factor V resistant to activated protein C, a natural anticoagulant, and is associated with a higher risk of blood clots in the veins (venous thrombosis).',
          '8164741',
          true,
        ),
      ],
    }),
  },
  {
    code: 'hfe',
    name: 'HFE haemochromatosis variants (C282Y, H63D)',
    gene: 'HFE',
    clinical: true,
    markers: [
      { rsid: 1800562, variant: 'A', other: 'G', role: 'C282Y allele A' },
      // C/G is palindromic: read on the forward strand only, as the scoring does.
      { rsid: 1799945, variant: 'G', other: 'C', role: 'H63D allele G' },
    ],
    limits: CHIP_LIMITS('HFE'),
    read: readHfe,
  },
  {
    code: 'lactase_persistence',
    name: 'Lactase persistence (digesting milk as an adult)',
    gene: 'LCT/MCM6',
    clinical: false,
    // −13910 C>T upstream of LCT, in MCM6; the T on the gene's strand is A on the forward strand.
    markers: [{ rsid: 4988235, variant: 'A', other: 'G', role: 'lactase persistence allele A (−13910*T)' }],
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
    clinical: false,
    markers: [{ rsid: 671, variant: 'A', other: 'G', role: 'ALDH2*2 allele A (E504K)' }],
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
function evaluate(spec: FindingSpec, lookup: CallLookup): Finding {
  const markers = spec.markers.map((m) => readMarker(lookup, m));
  const copies = markers.map((m) => m.copies);
  const { code, name, gene, clinical, limits } = spec;
  const status = statusOf(markers);
  const unread = markers.filter((m) => m.copies === null).map(unreadable);
  const answer: Reading =
    spec.needsEvery && unread.length > 0
      ? { result: null, summary: spec.needsEvery(unread.join('; ')), statements: [] }
      : unread.length === markers.length
        ? { result: null, summary: `Not determined: ${unread.join('; ')}.`, statements: [] }
        : spec.read(copies, markers);
  return { code, name, gene, clinical, markers, limits, status, ...answer };
}

/** Genes with findings and the rsIDs read for each: the gene search of the UI starts here. */
export const FINDING_GENES: Record<string, string[]> = Object.fromEntries(
  FINDINGS.flatMap((f) => f.gene.split('/').map((gene) => [gene, f.markers.map((m) => `rs${m.rsid}`)])),
);

/** Every finding for one genotype, in a fixed order. */
export function findingsFor(lookup: CallLookup): Finding[] {
  return FINDINGS.map((spec) => evaluate(spec, lookup));
}
