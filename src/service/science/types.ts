/**
 * The contract between the service (routes, storage, trait statuses) and the science
 * (catalog, scoring, percentiles, ancestry). The service only calls what is declared here.
 */
import type { Population } from '../../shared/populations.js';
import type { FileLimits } from '../../shared/file-limits.js';
import type { AncestryInference, Genotype, GenotypeFacts } from '../genotype/types.js';

/** 1000 Genomes phase 3 super-populations (src/shared/populations.ts). */
export type { Population };
/** Declared with the genotype they describe; part of the science's contract too. */
export type { AncestryInference, GenotypeFacts };

export type PricingType = 'free' | 'basic';
export type Connotation = 'risky' | 'good' | 'neutral';

/** Evidence and provenance shown with every result. */
export interface TraitQuality {
  markers: number;
  sample_size: number | null;
  publication_year: number | null;
  /** e.g. "strong", "moderate", "limited": how much to trust the score; documented in docs/science.md. */
  evidence: string;
  study_id: string | null;
  pmid: string | null;
  first_author: string | null;
  citation: string;
}

/** What the evidence behind a trait's score is (docs/science.md, "Evidence"). */
export interface TraitEvidence {
  label: 'strong' | 'moderate' | 'limited' | 'suggestive';
  /** Why the label is not higher (or what made it strong), one sentence each. */
  reasons: string[];
  /** Markers with p ≤ 5e-8; null when the source gives no p-values. */
  genome_wide_markers: number | null;
  /** Largest share of the score's variance carried by a single marker (worst of the five populations). */
  top_marker_share: number;
  /** Hand-curated (featured) rather than generated automatically from the source tables. */
  curated: boolean;
  /** Warnings, e.g. "dominated_by_one_marker", "suggestive_only", "automated_biobank_analysis". */
  flags: string[];
  /** How much of the trait the known variants explain, where the source states it; null = unknown. */
  variance_explained: { value: number; description: string; source: string } | null;
}

/** The phenotype group a trait belongs to: several studies of one phenotype, one headline result. */
export interface TraitGroup {
  /** Code of the group's headline trait (the group's id). */
  code: string;
  /** The phenotype, without author or PMID. */
  name: string;
  /** Studies in the group (1 = the only one). */
  size: number;
  /** This trait is the group's headline result (docs/science.md, "Phenotype groups"). */
  headline: boolean;
}

/** One trait as the API and UI show it. */
export interface TraitInfo {
  code: string;
  name: string;
  /** Plain-language description; may contain simple HTML (spec: "may contain HTML markup"). */
  overview: string;
  connotation: Connotation;
  category: string;
  /** Featured traits are the curated consumer set; the rest are the generated GWAS set. */
  featured: boolean;
  default_pricing: PricingType;
  quality: TraitQuality;
  /** The study behind the score, e.g. "Mahajan et al. 2018" or "UK Biobank (Neale lab, 2017)". */
  study_label: string;
  group: TraitGroup;
  /** The sex the trait applies to, or null for everyone; the reason is in `sex_reason`. */
  sex: 'male' | 'female' | null;
  sex_reason: string | null;
  evidence: TraitEvidence;
  /** Changes whenever the trait's definition (markers, weights, texts) changes: stored
   * assessments with another revision are recomputed. */
  revision: string;
}

/** One marker of a computed assessment, for the detail view. */
export interface AssessedMarker {
  rsid: string;
  /** The person's genotype as letters ("AG"), or "--" when missing. */
  genotype: string;
  effect_allele: string;
  other_allele: string;
  weight: number;
  /** Effect-allele dosage used in the score (0–2; expected dosage 2p when imputed). */
  dosage: number;
  /** "observed", "imputed" (missing: expected dosage), "excluded" (alleles do not match). */
  use: 'observed' | 'imputed' | 'excluded';
}

/** The reference population a result was compared with, and how it was chosen. */
export interface ReferencePopulation {
  /** A 1000 Genomes super-population, or MIXED for a reference built from proportions. */
  population: Population | 'MIXED';
  /** For people: "European (EUR)", "Mixed: 62 % African (AFR), 38 % European (EUR)". */
  label: string;
  /** ethnicity: chosen by the person; inferred: estimated from the DNA file; assumed: too little evidence, a default. */
  source: 'ethnicity' | 'inferred' | 'assumed';
  /** Reference frequencies are Σ weight × the population's frequency. */
  weights: Record<Population, number>;
  /** How it was chosen, one or two sentences. */
  reason: string;
  /** The estimate from the file, when there is one. */
  ancestry:
    | (Pick<AncestryInference, 'best' | 'proportions' | 'markers_used' | 'confidence' | 'admixed' | 'sufficient'> &
        Partial<Pick<AncestryInference, 'proportions_se' | 'mixture_frequency_error'>>)
    | null;
}

/** The person's sex as used for sex-specific traits and X-chromosome dosage. */
export interface SexInfo {
  value: 'male' | 'female' | null;
  /** profile: the person said so; dna: inferred from X heterozygosity and Y calls. */
  source: 'profile' | 'dna' | null;
  /** What the DNA file says (X hemizygous when male). */
  dna: 'male' | 'female' | null;
  /** The profile and the DNA disagree. */
  mismatch: boolean;
}

/** How much a single result can be trusted (docs/science.md, "Evidence"). */
export interface ResultEvidence {
  /** This result's label: the trait's, one step lower when under 90 % of the markers were genotyped. */
  label: TraitEvidence['label'];
  trait_label: TraitEvidence['label'];
  coverage: number;
  markers_used: number;
  markers_total: number;
  genome_wide_markers: number | null;
  top_marker_share: number;
  variance_explained: TraitEvidence['variance_explained'];
  reasons: string[];
}

/** A trait's frequency as a result uses it (docs/science.md, "What a result means"). */
export interface MeaningFrequency {
  /** Percent. */
  value: number;
  /** The study, its people and PMID, in one line. */
  source: string;
  pmid: string;
  measure: 'lifetime risk' | 'prevalence' | 'cohort share';
  horizon: string;
  /** The sex and super-population the figure is for (null: everyone / not one of them). */
  sex: 'male' | 'female' | null;
  population: Population | null;
}

/** What the result means for this person, in absolute terms where a source allows (docs/science.md). */
export interface ResultMeaning {
  /** risk: a chance in percent; value: expected difference from average in trait SDs; relative: a rank only. */
  kind: 'risk' | 'value' | 'relative';
  /** risk: percent for people with this score; value: expected difference in trait SDs; null for relative. */
  yours: number | null;
  /** risk: the frequency in percent; value: 0 (the average); null for relative. */
  average: number | null;
  /** "percent", "SD" (standard deviations of the trait), or null. */
  unit: 'percent' | 'SD' | null;
  /** When the chance applies ("from age 40 to 95"), or null. */
  horizon: string | null;
  /** Odds ratio per SD of the score (log-odds weights); percentage points per SD (probability weights); trait SDs per score SD (value). */
  effect_per_sd: number | null;
  effect_scale: 'odds_ratio' | 'percentage_points' | 'trait_sd' | null;
  /** Share of the trait's variance the score explains (0–1): the catalog's figure, else the one the score's own numbers give; null = unknown. */
  variance_explained: number | null;
  /** The share the score's own numbers give (liability scale for log-odds weights, observed scale for probability weights), for comparison with a published one. */
  variance_explained_from_score: number | null;
  /** value: the spread (SD) of the trait among people with the same score; null otherwise. */
  spread: number | null;
  /** Odds relative to an average person of the reference (log-odds weights), also when no frequency is known. */
  odds_vs_average: number | null;
  frequency: MeaningFrequency | null;
  /** The model, in one sentence. */
  model: string;
  /** How reliable the result is for this person's ancestry. */
  reliability: string;
  /** Absolute figures are less certain for this person. */
  less_certain: boolean;
  /** Limits of the frequency (e.g. UK Biobank volunteers aged 40–69), or null. */
  limits: string | null;
  /** Why the result stays relative; null otherwise. */
  reason: string | null;
  /** The meaning in one or two sentences for people. */
  summary: string;
}

export interface Assessment {
  /** 1 = lowest genetic predisposition … 5 = highest; null only for raw-score-only imported scores. */
  assessment_level: 1 | 2 | 3 | 4 | 5 | null;
  level_label: string;
  /** 0–100: the profile's score among the reference population (mid-rank); null only for raw-score-only imported scores. */
  percentile: number | null;
  /** The percentile for people; "beyond the 99.9th percentile" off the scale's ends. */
  percentile_text: string;
  /** Set when the score lies beyond the 0.1st or 99.9th percentile. */
  percentile_bound: 'below_0.1' | 'above_99.9' | null;
  /** Levels a genotype can reach with this score and reference (few-marker scores cannot reach all five). */
  reachable_levels: number[];
  /** Plain text for the level. */
  recommendations: string;
  /** rsIDs whose genotype entered the score. */
  snps: string[];
  /** Fraction of the trait's markers genotyped (0–1). */
  coverage: number;
  population: Population | 'MIXED';
  population_source: ReferencePopulation['source'];
  reference: ReferencePopulation;
  evidence: ResultEvidence;
  /** Raw polygenic score Σ weight × dosage. */
  score: number;
  /** Reference distribution of the score, for the plot (null without a percentile). */
  distribution: null | {
    mean: number;
    sd: number;
    min: number;
    max: number;
    /** exact: enumerated; grid: large markers on a fine grid (+ a smooth part); normal: Edgeworth-corrected normal. */
    method: 'exact' | 'grid' | 'normal';
    /** table: the catalog's precomputed table; computed: built for this person (partial coverage, mixed reference). */
    source: 'table' | 'computed';
    /** Probability per support point (exact) or density (otherwise), at most 101 points. */
    density: Array<[number, number]>;
  };
  markers: AssessedMarker[];
  quality: TraitQuality;
  /** The trait revision the assessment was computed with. */
  revision: string;
  /** How the trait's markers matched the genotype (the match-rate report). */
  match: MatchReport;
  /** Set when calls of alleles rarer than RARE_CALL_FREQUENCY move the result across a level (docs/science.md, "Rare calls"). */
  rare_call: RareCall | null;
  /** What the result means for this person (absolute terms, how much it can tell, reliability). */
  meaning: ResultMeaning;
}

/** One call of an allele rarer than RARE_CALL_FREQUENCY in the person's reference. */
export interface RareCallMarker {
  rsid: string;
  /** The person's genotype as letters. */
  genotype: string;
  /** The rare allele the person carries. */
  allele: string;
  /** Its frequency in the person's reference population. */
  frequency: number;
  /** The level the result would have with this call read as the common genotype, the other calls as they are. */
  level_without: 1 | 2 | 3 | 4 | 5;
}

/** Rare calls that decide the result's level, and what the level would be without them. */
export interface RareCall {
  /** The rarest of the deciding calls (also in `markers`). */
  rsid: string;
  frequency: number;
  /** Every rare call of the score, rarest first. */
  markers: RareCallMarker[];
  /** The level and percentile with every rare call read as the common genotype. */
  level_without: 1 | 2 | 3 | 4 | 5;
  percentile_without: number;
  /** For people: which call decides the result, and the advice to have it confirmed. */
  text: string;
}

/** Counts behind `coverage`: observed + imputed + excluded = markers. */
export interface MatchReport {
  markers: number;
  /** Genotyped with matching alleles; these enter the score with their own dosage. */
  observed: number;
  /** Not genotyped (absent or no-call): expected dosage 2p. */
  imputed: number;
  /** Genotyped, but the alleles match neither the marker nor its complement: expected dosage 2p. */
  excluded: number;
  /** Observed markers matched on the opposite strand (complement). */
  strand_flipped: number;
}

/** Everything scoring needs to know about the person (built by assessContext()). */
export interface AssessContext {
  /** Profile ethnicity 0–5 (spec codes); 1–5 choose that reference population. */
  ethnicity: number;
  /** Profile gender 0 unknown, 1 male, 2 female. */
  gender: number;
  /** A mixed reference the person chose (ethnicity 0), proportions per super-population. */
  mixture: Record<Population, number> | null;
  /** The ancestry estimate stored with the genotype; null = estimate it now. */
  ancestry: AncestryInference | null;
  /** Sex inferred from the genotype file. */
  inferredSex: 'male' | 'female' | null;
  /** What keeps markers out of the file's reading (a sequencing VCF without rsIDs, or of variants only). */
  fileLimits?: FileLimits | null;
}

/** What the profile says about the person (build an AssessContext with assessContext()). */
export interface ProfileFacts {
  ethnicity: number;
  /** 0 unknown, 1 male, 2 female (spec enum). */
  gender: number;
  /** A mixed reference chosen by the person (extension), or null. */
  reference_mixture?: Record<Population, number> | null;
}

export interface AssessOptions {
  /**
   * false: summaries only — no per-marker table and no plot density (`markers` empty,
   * `distribution.density` empty). Background scoring stores summaries; a single read
   * recomputes its details.
   */
  details?: boolean;
}

/** Why a trait has no assessment for this profile. */
export interface UnavailableReason {
  code: 'low_coverage' | 'not_applicable';
  /** A sentence for the person. */
  detail: string;
}

/** The outcome of scoring one trait: an assessment, or the reason there is none. */
export type TraitOutcome =
  { status: 'computed'; assessment: Assessment } | { status: 'unavailable'; reason: UnavailableReason };

export interface ScienceEngine {
  /** Every built-in trait, in catalog order. */
  traits: readonly TraitInfo[];
  trait: (code: string) => TraitInfo | undefined;
  /** True when enough of the trait's markers are genotyped to compute it (whatever the person's sex). */
  isComputable: (code: string, genotype: Genotype) => boolean;
  /** Why the trait cannot be computed for this person, or null when it can. */
  unavailableReason: (code: string, genotype: Genotype, context: AssessContext) => UnavailableReason | null;
  /** The assessment, or null when the trait is not computable for this genotype. */
  assess: (code: string, genotype: Genotype, context: AssessContext) => Assessment | null;
  /** Ancestry estimated from the genotype's ancestry-informative markers. */
  inferAncestry: (genotype: Genotype) => AncestryInference;
  /** The reference population scoring uses for this person, and how it was chosen. */
  reference: (genotype: Genotype, context: AssessContext) => ReferencePopulation;
  /** The person's sex as scoring uses it. */
  sex: (context: AssessContext) => SexInfo;
  /**
   * Scores many traits of one genotype at once (all of the engine's traits when `codes` is
   * omitted); unknown codes are left out of the result. The one entry point for batch
   * scoring: processing, background scoring and recomputation all go through it.
   */
  assessMany: (
    genotype: Genotype,
    context: AssessContext,
    codes?: Iterable<string>,
    options?: AssessOptions,
  ) => Map<string, TraitOutcome>;
}
