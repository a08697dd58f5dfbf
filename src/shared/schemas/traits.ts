/**
 * Traits, statuses and assessments. One schema per response shape:
 * - ProfileTraitStatus: `{trait, status}` (profile trait list without `score`);
 * - TraitAssessment: the trait, status `computed` and the assessment summary (list with
 *   `score`, and the compute response);
 * - FullTraitAssessment: the summary plus markers, distribution and match report (single
 *   trait read and compute).
 * The summary fields are one shape (AssessmentSummary): a field added there appears in
 * every assessment response, compact ones included.
 */
import { z } from 'zod';
import { ext, Rsid } from './common.js';
import { POPULATIONS } from '../populations.js';

export const Connotation = z.enum(['risky', 'good', 'neutral']).meta({
  id: 'Connotation',
  description: 'Whether a higher predisposition is a risk (risky), desirable (good) or neither (neutral).',
});
export const PricingType = z
  .enum(['free', 'basic'])
  .meta({ id: 'PricingType', description: 'free: computed automatically; basic: charged, computed on request.' });
export const TraitStatus = z.enum(['available', 'unavailable', 'computed']).meta({
  id: 'TraitStatus',
  description:
    'available: can be computed on request; unavailable: cannot be computed for this profile; computed: can be read.',
});
export type TraitStatus = z.infer<typeof TraitStatus>;
export const Population = z.enum(POPULATIONS).meta({
  id: 'Population',
  description: '1000 Genomes super-population: European, Admixed American, African, East Asian, South Asian.',
});
export const ReferencePopulationCode = z.enum([...POPULATIONS, 'MIXED']).meta({
  id: 'ReferencePopulationCode',
  description: 'A super-population, or MIXED for a reference built from ancestry proportions.',
});
export const PopulationSource = z.enum(['ethnicity', 'inferred', 'assumed']).meta({
  id: 'PopulationSource',
  description: 'ethnicity: chosen by the person; inferred: from the DNA file; assumed: too little evidence.',
});
const Proportions = z
  .object(
    Object.fromEntries(POPULATIONS.map((p) => [p, z.number().min(0).max(1)])) as Record<
      (typeof POPULATIONS)[number],
      z.ZodNumber
    >,
  )
  .meta({ id: 'PopulationProportions', description: 'A share per super-population.' });
export const EvidenceLabel = z.enum(['strong', 'moderate', 'limited', 'suggestive']).meta({ id: 'EvidenceLabel' });
const VarianceExplained = z
  .object({ value: z.number(), description: z.string(), source: z.string() })
  .meta({ id: 'VarianceExplained' });

export const TraitEvidence = z
  .object({
    label: EvidenceLabel,
    reasons: z.array(z.string()),
    genome_wide_markers: z.int().nullable(),
    top_marker_share: z.number().min(0).max(1),
    curated: z.boolean(),
    flags: z.array(z.string()),
    variance_explained: VarianceExplained.nullable(),
  })
  .meta({ id: 'TraitEvidence', description: 'What the evidence behind the score is (docs/science.md, "Evidence").' });

export const TraitGroup = z
  .object({
    code: z.string().describe("The group's headline trait code."),
    name: z.string().describe('The phenotype, without author or PMID.'),
    size: z.int().min(1),
    headline: z.boolean().describe("This trait is the group's headline result."),
  })
  .meta({
    id: 'TraitGroup',
    description: 'Studies of one phenotype; one headline result (docs/science.md, "Phenotype groups").',
  });

export const ReferencePopulation = z
  .object({
    population: ReferencePopulationCode,
    label: z.string(),
    source: PopulationSource,
    weights: Proportions,
    reason: z.string(),
    ancestry: z
      .object({
        best: Population.nullable(),
        proportions: Proportions,
        markers_used: z.int(),
        confidence: z.number().min(0).max(1),
        admixed: z.boolean(),
        sufficient: z.boolean(),
        proportions_se: z
          .record(z.string(), z.number().nullable())
          .nullable()
          .optional()
          .describe('Standard error of each proportion: the uncertainty of a mixed reference built from them.'),
        mixture_frequency_error: z
          .number()
          .nullable()
          .optional()
          .describe(
            'Standard error of a mixed reference frequency built from the proportions (root mean square over the ancestry markers used, docs/ancestry.md).',
          ),
      })
      .nullable(),
  })
  .meta({
    id: 'ReferencePopulation',
    description: 'The reference population a result was compared with, and how it was chosen.',
  });

export const ResultEvidence = z
  .object({
    label: EvidenceLabel,
    trait_label: EvidenceLabel,
    coverage: z.number().min(0).max(1),
    markers_used: z.int(),
    markers_total: z.int(),
    genome_wide_markers: z.int().nullable(),
    top_marker_share: z.number().min(0).max(1),
    variance_explained: VarianceExplained.nullable(),
    reasons: z.array(z.string()),
  })
  .meta({ id: 'ResultEvidence', description: 'How much this result can be trusted, and why.' });

export const MeaningFrequency = z
  .object({
    value: z.number().min(0).max(100).describe('Percent.'),
    source: z.string().describe('The study and the people it measured.'),
    pmid: z.string().describe('PubMed id of the publication the figure comes from.'),
    measure: z.enum(['lifetime risk', 'prevalence', 'cohort share']),
    horizon: z.string().describe('When the figure applies, e.g. "from age 40 to 95".'),
    sex: z.enum(['male', 'female']).nullable().describe('The sex the figure is for; null: everyone.'),
    population: Population.nullable().describe('The super-population the figure is for; null: not one of them.'),
  })
  .meta({ id: 'MeaningFrequency', description: "The trait's frequency a result is calibrated to, with its source." });

export const ResultMeaning = z
  .object({
    kind: z
      .enum(['risk', 'value', 'relative'])
      .describe(
        'risk: a chance in percent; value: expected difference from average in standard deviations of the trait; relative: a rank only (see reason).',
      ),
    yours: z
      .number()
      .nullable()
      .describe(
        'risk: percent of people with this score who have or develop it; value: expected difference in trait SDs; null for relative.',
      ),
    average: z.number().nullable().describe('risk: the frequency in percent; value: 0; null for relative.'),
    unit: z.enum(['percent', 'SD']).nullable(),
    horizon: z.string().nullable().describe('When the chance applies (e.g. "from age 40 to 95"), or null.'),
    effect_per_sd: z
      .number()
      .nullable()
      .describe(
        'Odds ratio per SD of the score (log-odds weights); percentage points per SD (probability weights); trait SDs per score SD (value); null when unknown.',
      ),
    effect_scale: z.enum(['odds_ratio', 'percentage_points', 'trait_sd']).nullable(),
    variance_explained: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe(
        "Share of the trait's variance the score explains: the catalog's figure, else the score's own; null = unknown.",
      ),
    variance_explained_from_score: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe(
        'The share the score’s own numbers give (liability scale for log odds, observed scale for probabilities).',
      ),
    spread: z.number().nullable().describe('value: SD of the trait among people with the same score; else null.'),
    odds_vs_average: z
      .number()
      .nullable()
      .describe('Odds relative to a person with an average score (log-odds weights), also without a frequency.'),
    frequency: MeaningFrequency.nullable(),
    model: z.string().describe('The model behind the figures, in one sentence.'),
    reliability: z.string().describe("How reliable the result is for this person's ancestry (Ding et al. 2023)."),
    less_certain: z
      .boolean()
      .describe('Absolute figures are less certain for this person (ancestry far from the studies’, or unknown).'),
    limits: z
      .string()
      .nullable()
      .describe('What the frequency does not cover (e.g. UK Biobank volunteers aged 40–69).'),
    reason: z.string().nullable().describe('Why the result stays relative; null otherwise.'),
    summary: z.string().describe('The meaning in one or two sentences for people.'),
  })
  .meta({
    id: 'ResultMeaning',
    description:
      'What the result means for this person: absolute terms where a cited frequency or the share explained allows, how much the score can tell, how reliable it is (docs/science.md, "What a result means").',
  });

export const StatusReason = z
  .object({ code: z.enum(['low_coverage', 'not_applicable', 'processing', 'no_genotype']), detail: z.string() })
  .meta({ id: 'StatusReason', description: 'Why the trait is unavailable for this profile.' });
export const AssessmentLevel = z.literal([1, 2, 3, 4, 5]).meta({
  id: 'AssessmentLevel',
  description:
    '1 = much lower than average genetic predisposition, 2 = lower, 3 = average, 4 = higher, 5 = much higher.',
  'x-enum-varnames': ['MuchLower', 'Lower', 'Average', 'Higher', 'MuchHigher'],
});

export const TraitQuality = z
  .object({
    markers: z.int().min(0),
    sample_size: z.number().min(0).nullable(),
    publication_year: z.int().nullable(),
    evidence: z
      .string()
      .describe('strong, moderate or limited: how much the study supports the score (docs/science.md).'),
    study_id: z.string().nullable(),
    pmid: z.string().nullable(),
    first_author: z.string().nullable(),
    citation: z.string(),
  })
  .meta({ id: 'TraitQuality', description: 'Evidence and provenance of the trait score.' });

const traitFields = {
  code: z.string().describe('Unique trait code (TraitCode).'),
  name: z.string(),
  overview: z.string().describe('Description; may contain simple HTML markup.'),
  connotation: Connotation,
  category: ext(z.string(), 'Category for browsing, e.g. "Appearance".'),
  featured: ext(z.boolean(), 'Part of the curated consumer set (the rest is the generated GWAS set).'),
  quality: ext(TraitQuality),
  study_label: ext(z.string().optional(), 'The study behind the score, e.g. "Mahajan et al. 2018".'),
  group: ext(TraitGroup.optional()),
  sex: ext(z.enum(['male', 'female']).nullable().optional(), 'The sex the trait applies to; null for everyone.'),
  sex_reason: ext(z.string().nullable().optional()),
  evidence: ext(TraitEvidence.optional()),
};

export const Trait = z.object(traitFields).meta({ id: 'Trait' });
export type Trait = z.infer<typeof Trait>;

/** The compact trait: everything but the long texts. */
export const TraitBrief = z
  .object({
    code: traitFields.code,
    name: traitFields.name,
    connotation: Connotation,
    category: traitFields.category,
    featured: traitFields.featured,
  })
  .meta({
    id: 'TraitBrief',
    description: 'A trait without overview and quality (view=compact).',
    [`x-traitscope-extension`]: true,
  });

export const ClientTrait = z.object({ trait: Trait, type: PricingType }).meta({ id: 'ClientTrait' });
export type ClientTrait = z.infer<typeof ClientTrait>;
export const ClientTraitBrief = z.object({ trait: TraitBrief, type: PricingType }).meta({
  id: 'ClientTraitBrief',
  description: 'A client trait in the compact view.',
  [`x-traitscope-extension`]: true,
});
export const ClientTraitList = z
  .array(z.union([ClientTrait, ClientTraitBrief]))
  .meta({ id: 'ClientTraitList', description: 'ClientTrait elements; ClientTraitBrief with view=compact.' });

// ---- Assessments --------------------------------------------------------------------

/** The assessment summary: every assessment response carries these fields. */
export const MatchReport = z
  .object({
    markers: z.int().min(0),
    observed: z.int().min(0).describe('Genotyped with matching alleles.'),
    imputed: z.int().min(0).describe('Not genotyped: expected dosage used.'),
    excluded: z.int().min(0).describe('Alleles match neither the marker nor its complement.'),
    strand_flipped: z.int().min(0).describe('Observed on the opposite strand.'),
  })
  .meta({ id: 'MatchReport', description: "How the trait's markers matched the genotype." });

const RareCallMarker = z
  .object({
    rsid: Rsid,
    genotype: z.string().describe('The genotype as letters.'),
    allele: z.string().describe('The rare allele carried.'),
    frequency: z.number().min(0).max(1).describe("Its frequency in the person's reference population."),
    level_without: AssessmentLevel.describe(
      'The level with this call read as the common homozygous genotype, the others as they are.',
    ),
  })
  .meta({ id: 'RareCallMarker' });

export const RareCall = z
  .object({
    rsid: Rsid.describe('The rarest of the calls that decide the level.'),
    frequency: z.number().min(0).max(1),
    markers: z.array(RareCallMarker).describe('Every call of an allele rarer than 1 % in the reference, rarest first.'),
    level_without: AssessmentLevel.describe('The level with every rare call read as the common homozygous genotype.'),
    percentile_without: z.number().min(0).max(100),
    text: z.string().describe('Which call decides the result, and the advice to have it confirmed.'),
  })
  .meta({
    id: 'RareCall',
    description:
      'Calls of alleles rarer than 1 % in the reference that move the result across a level. Chip calls of rare variants are often wrong (Weedon et al., BMJ 2021, PMID 33589468): the result should be confirmed.',
  });

export const AssessmentSummary = z.object({
  assessment_level: AssessmentLevel.nullable().describe(
    'null only for imported scores without reference frequencies (raw score only).',
  ),
  percentile: z
    .number()
    .min(0)
    .max(100)
    .nullable()
    .describe(
      "0–100 (mid-rank): the profile's genetic score among the reference population. null only for imported scores without reference frequencies (raw score only).",
    ),
  recommendations: z.string().describe('Plain text for the level.'),
  snps: z.array(Rsid).describe('The rsIDs whose genotype entered the score.'),
  level_label: ext(z.string(), 'The level in words, e.g. "Higher than average".'),
  coverage: ext(z.number().min(0).max(1), "Fraction of the trait's markers genotyped."),
  population: ext(ReferencePopulationCode),
  population_source: ext(PopulationSource),
  reference: ext(ReferencePopulation.optional()),
  evidence: ext(ResultEvidence.optional()),
  percentile_text: ext(z.string().optional(), 'The percentile in words.'),
  percentile_bound: ext(
    z.enum(['below_0.1', 'above_99.9']).nullable().optional(),
    'Set when the percentile is beyond what the reference can resolve.',
  ),
  reachable_levels: ext(
    z.array(z.int().min(1).max(5)).optional(),
    'The levels this genotype could reach given its coverage.',
  ),
  group_agreement: ext(
    z.object({ others: z.int(), agree: z.int(), disagree: z.int(), summary: z.string() }).optional(),
    "Headline results of a phenotype group (lists with score): how the group's other studies agree.",
  ),
  score: ext(z.number(), 'Raw polygenic score: Σ weight × effect-allele dosage.'),
  match: ext(
    MatchReport.optional(),
    "How the trait's markers matched the genotype (the match rate: observed / markers).",
  ),
  computed_at: ext(z.iso.datetime(), 'When the assessment was computed (UTC).'),
  rare_call: ext(
    RareCall.nullable().optional(),
    'Set when a call of an allele rarer than 1 % in the reference moves the result across a level; null otherwise (absent from results stored before it existed).',
  ),
  meaning: ext(ResultMeaning, 'What the result means for this person (absolute terms, reliability).'),
});

export const AssessedMarker = z
  .object({
    rsid: Rsid,
    genotype: z.string().describe('The person\'s genotype ("AG"), or "--" when missing.'),
    effect_allele: z.string(),
    other_allele: z.string(),
    weight: z.number(),
    dosage: z.number().min(0).max(2).describe('Effect-allele dosage used (expected dosage 2p when imputed).'),
    use: z.enum(['observed', 'imputed', 'excluded']),
  })
  .meta({ id: 'AssessedMarker' });

export const ScoreDistribution = z
  .object({
    mean: z.number(),
    sd: z.number().min(0),
    min: z.number(),
    max: z.number(),
    method: z
      .enum(['exact', 'grid', 'normal'])
      .describe('exact: enumerated; grid: large markers on a fine grid plus a smooth part; normal: corrected normal.'),
    source: z
      .enum(['table', 'computed'])
      .describe("table: the catalog's precomputed table; computed: built for this person."),
    density: z
      .array(z.tuple([z.number(), z.number()]))
      .describe('[score, probability or density] pairs of the reference distribution, for plots.'),
  })
  .meta({ id: 'ScoreDistribution', description: "Reference distribution of the score in the profile's population." });

const statusReason = ext(StatusReason.optional());

export const ProfileTraitStatus = z
  .object({ trait: Trait, status: TraitStatus, status_reason: statusReason })
  .meta({ id: 'ProfileTraitStatus', description: 'A trait and its status for the profile.' });

export const TraitNotComputed = z
  .object({ trait: Trait, status: z.enum(['available', 'unavailable']), status_reason: statusReason })
  .meta({ id: 'TraitNotComputed', description: 'A trait that has no assessment (yet) for the profile.' });

export const TraitAssessment = z
  .object({ trait: Trait, status: z.literal('computed'), ...AssessmentSummary.shape })
  .meta({ id: 'TraitAssessment', description: 'A computed trait with its assessment summary.' });

export const FullTraitAssessment = TraitAssessment.extend({
  markers: ext(z.array(AssessedMarker)),
  distribution: ext(ScoreDistribution.nullable(), 'null only for imported scores without reference frequencies.'),
}).meta({
  id: 'FullTraitAssessment',
  description: 'A computed trait with the full assessment: summary, markers, reference distribution and match report.',
});

export const ProfileTraitStatusCompact = z
  .object({ trait_code: z.string(), status: TraitStatus, status_reason: statusReason })
  .meta({
    id: 'ProfileTraitStatusCompact',
    description: 'A trait status naming the trait by code (view=compact).',
    [`x-traitscope-extension`]: true,
  });

export const TraitAssessmentCompact = z
  .object({ trait_code: z.string(), status: z.literal('computed'), ...AssessmentSummary.shape })
  .meta({
    id: 'TraitAssessmentCompact',
    description: 'An assessment summary naming the trait by code (view=compact).',
    [`x-traitscope-extension`]: true,
  });

export const ProfileTraitList = z
  .array(z.union([ProfileTraitStatus, TraitAssessment, ProfileTraitStatusCompact, TraitAssessmentCompact]))
  .meta({
    id: 'ProfileTraitList',
    description:
      'Without `score`: every client trait as ProfileTraitStatus. With `score`: only computed traits, as TraitAssessment. With view=compact the elements name the trait by code (the Compact shapes). [] while no genotype is ready.',
  });

export const TraitAssessmentList = z.array(z.union([TraitAssessment, TraitAssessmentCompact])).meta({
  id: 'TraitAssessmentList',
  description: 'Every requested trait that is computed after the call (TraitAssessmentCompact with view=compact).',
});

export const ProfileTraitDetail = z.union([FullTraitAssessment, TraitNotComputed]).meta({
  id: 'ProfileTraitDetail',
  description: 'The full assessment when the trait is computed, otherwise the trait and its status.',
});

/** POST /profiles/{id}/traits/ accepts both documented shapes. */
export const ComputeRequest = z.union([z.array(z.string()), z.object({ trait_codes: z.array(z.string()) })]).meta({
  id: 'ComputeRequest',
  description: 'A JSON array of trait codes, or {"trait_codes": [...]}.',
  examples: [['height', 'freckles']],
});

export type TraitAssessment = z.infer<typeof TraitAssessment>;
export type FullTraitAssessment = z.infer<typeof FullTraitAssessment>;
export type ProfileTraitStatus = z.infer<typeof ProfileTraitStatus>;

/**
 * Any element of a profile-trait response (for code that handles all of them): trait and
 * status always, the assessment fields when computed.
 */
export type ProfileTrait = ProfileTraitStatus & Partial<Omit<FullTraitAssessment, 'trait' | 'status'>>;
