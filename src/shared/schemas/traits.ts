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

export const Connotation = z
  .enum(['risky', 'good', 'neutral'])
  .meta({ id: 'Connotation', description: 'Whether a higher predisposition is a risk (risky), desirable (good) or neither (neutral).' });
export const PricingType = z.enum(['free', 'basic']).meta({ id: 'PricingType', description: 'free: computed automatically; basic: charged, computed on request.' });
export const TraitStatus = z
  .enum(['available', 'unavailable', 'computed'])
  .meta({ id: 'TraitStatus', description: 'available: can be computed on request; unavailable: cannot be computed for this profile; computed: can be read.' });
export type TraitStatus = z.infer<typeof TraitStatus>;
export const Population = z
  .enum(['EUR', 'AMR', 'AFR', 'EAS', 'SAS'])
  .meta({ id: 'Population', description: '1000 Genomes super-population: European, Admixed American, African, East Asian, South Asian.' });
export const PopulationSource = z
  .enum(['ethnicity', 'inferred', 'default'])
  .meta({ id: 'PopulationSource', description: 'How the reference population was chosen: the profile ethnicity, inferred from the genotype, or the default (EUR).' });
export const AssessmentLevel = z.literal([1, 2, 3, 4, 5]).meta({
  id: 'AssessmentLevel',
  description: '1 = much lower than average genetic predisposition, 2 = lower, 3 = average, 4 = higher, 5 = much higher.',
  'x-enum-varnames': ['MuchLower', 'Lower', 'Average', 'Higher', 'MuchHigher'],
});

export const TraitQuality = z
  .object({
    markers: z.int().min(0),
    sample_size: z.number().min(0).nullable(),
    publication_year: z.int().nullable(),
    evidence: z.string().describe('strong, moderate or limited: how much the study supports the score (docs/science.md).'),
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
};

export const Trait = z.object(traitFields).meta({ id: 'Trait' });
export type Trait = z.infer<typeof Trait>;

/** The compact trait: everything but the long texts. */
export const TraitBrief = z
  .object({ code: traitFields.code, name: traitFields.name, connotation: Connotation, category: traitFields.category, featured: traitFields.featured })
  .meta({ id: 'TraitBrief', description: 'A trait without overview and quality (view=compact).', [`x-traitscope-extension`]: true });

export const ClientTrait = z.object({ trait: Trait, type: PricingType }).meta({ id: 'ClientTrait' });
export type ClientTrait = z.infer<typeof ClientTrait>;
export const ClientTraitBrief = z
  .object({ trait: TraitBrief, type: PricingType })
  .meta({ id: 'ClientTraitBrief', description: 'A client trait in the compact view.', [`x-traitscope-extension`]: true });
export const ClientTraitList = z
  .array(z.union([ClientTrait, ClientTraitBrief]))
  .meta({ id: 'ClientTraitList', description: 'ClientTrait elements; ClientTraitBrief with view=compact.' });

// ---- Assessments --------------------------------------------------------------------

/** The assessment summary: every assessment response carries these fields. */
export const AssessmentSummary = z.object({
  assessment_level: AssessmentLevel,
  percentile: z.number().min(0).max(100).describe("0–100: the profile's genetic score among the reference population."),
  recommendations: z.string().describe('Plain text for the level.'),
  snps: z.array(Rsid).describe('The rsIDs whose genotype entered the score.'),
  level_label: ext(z.string(), 'The level in words, e.g. "Higher than average".'),
  coverage: ext(z.number().min(0).max(1), "Fraction of the trait's markers genotyped."),
  population: ext(Population),
  population_source: ext(PopulationSource),
  score: ext(z.number(), 'Raw polygenic score: Σ weight × effect-allele dosage.'),
  computed_at: ext(z.iso.datetime(), 'When the assessment was computed (UTC).'),
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
    method: z.enum(['exact', 'normal']),
    density: z.array(z.tuple([z.number(), z.number()])).describe('[score, density] pairs of the reference distribution, for plots.'),
    exact_markers: z.int().min(0).optional().describe('For method normal: markers kept exact in a mixture of normals (0 = plain normal).'),
  })
  .meta({ id: 'ScoreDistribution', description: "Reference distribution of the score in the profile's population." });

export const MatchReport = z
  .object({
    markers: z.int().min(0),
    observed: z.int().min(0).describe('Genotyped with matching alleles.'),
    imputed: z.int().min(0).describe('Not genotyped: expected dosage used.'),
    excluded: z.int().min(0).describe('Alleles match neither the marker nor its complement.'),
    strand_flipped: z.int().min(0).describe('Observed on the opposite strand.'),
  })
  .meta({ id: 'MatchReport', description: "How the trait's markers matched the genotype." });

export const ProfileTraitStatus = z.object({ trait: Trait, status: TraitStatus }).meta({ id: 'ProfileTraitStatus', description: 'A trait and its status for the profile.' });

export const TraitNotComputed = z
  .object({ trait: Trait, status: z.enum(['available', 'unavailable']) })
  .meta({ id: 'TraitNotComputed', description: 'A trait that has no assessment (yet) for the profile.' });

export const TraitAssessment = z
  .object({ trait: Trait, status: z.literal('computed'), ...AssessmentSummary.shape })
  .meta({ id: 'TraitAssessment', description: 'A computed trait with its assessment summary.' });

export const FullTraitAssessment = TraitAssessment.extend({
  markers: ext(z.array(AssessedMarker)),
  distribution: ext(ScoreDistribution),
  match: ext(MatchReport.optional()),
}).meta({ id: 'FullTraitAssessment', description: 'A computed trait with the full assessment: summary, markers, reference distribution and match report.' });

export const ProfileTraitStatusCompact = z
  .object({ trait_code: z.string(), status: TraitStatus })
  .meta({ id: 'ProfileTraitStatusCompact', description: 'A trait status naming the trait by code (view=compact).', [`x-traitscope-extension`]: true });

export const TraitAssessmentCompact = z
  .object({ trait_code: z.string(), status: z.literal('computed'), ...AssessmentSummary.shape })
  .meta({ id: 'TraitAssessmentCompact', description: 'An assessment summary naming the trait by code (view=compact).', [`x-traitscope-extension`]: true });

export const ProfileTraitList = z
  .array(z.union([ProfileTraitStatus, TraitAssessment, ProfileTraitStatusCompact, TraitAssessmentCompact]))
  .meta({
    id: 'ProfileTraitList',
    description:
      'Without `score`: every client trait as ProfileTraitStatus. With `score`: only computed traits, as TraitAssessment. With view=compact the elements name the trait by code (the Compact shapes). [] while no genotype is ready.',
  });

export const TraitAssessmentList = z
  .array(z.union([TraitAssessment, TraitAssessmentCompact]))
  .meta({ id: 'TraitAssessmentList', description: 'Every requested trait that is computed after the call (TraitAssessmentCompact with view=compact).' });

export const ProfileTraitDetail = z
  .union([FullTraitAssessment, TraitNotComputed])
  .meta({ id: 'ProfileTraitDetail', description: 'The full assessment when the trait is computed, otherwise the trait and its status.' });

/** POST /profiles/{id}/traits/ accepts both documented shapes. */
export const ComputeRequest = z
  .union([z.array(z.string()), z.object({ trait_codes: z.array(z.string()) })])
  .meta({ id: 'ComputeRequest', description: 'A JSON array of trait codes, or {"trait_codes": [...]}.', examples: [['height', 'freckles']] });

export type TraitAssessment = z.infer<typeof TraitAssessment>;
export type FullTraitAssessment = z.infer<typeof FullTraitAssessment>;
export type ProfileTraitStatus = z.infer<typeof ProfileTraitStatus>;

/**
 * Any element of a profile-trait response (for code that handles all of them): trait and
 * status always, the assessment fields when computed.
 */
export type ProfileTrait = ProfileTraitStatus & Partial<Omit<FullTraitAssessment, 'trait' | 'status'>>;
