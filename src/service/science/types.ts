/**
 * The contract between the service (routes, storage, trait statuses) and the science
 * (catalog, scoring, percentiles, ancestry). The service only calls what is declared here.
 */
import type { Genotype } from '../genotype/types.js';

/** 1000 Genomes phase 3 super-populations. */
export type Population = 'EUR' | 'AMR' | 'AFR' | 'EAS' | 'SAS';
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

export interface Assessment {
  /** 1 = lowest genetic predisposition … 5 = highest. */
  assessment_level: 1 | 2 | 3 | 4 | 5;
  level_label: string;
  /** 0–100: the profile's score among the reference population. */
  percentile: number;
  /** Plain text for the level. */
  recommendations: string;
  /** rsIDs whose genotype entered the score. */
  snps: string[];
  /** Fraction of the trait's markers genotyped (0–1). */
  coverage: number;
  population: Population;
  /** How the population was chosen: from the profile's ethnicity, inferred from the genotype, or the default. */
  population_source: 'ethnicity' | 'inferred' | 'default';
  /** Raw polygenic score Σ weight × dosage. */
  score: number;
  /** Reference distribution of the score in the population, for the plot. */
  distribution: {
    mean: number;
    sd: number;
    min: number;
    max: number;
    method: 'exact' | 'normal';
    density: Array<[number, number]>;
    /** For 'normal': markers kept exact in a mixture of normals (0 = plain normal; docs/science.md). */
    exact_markers?: number;
  };
  markers: AssessedMarker[];
  quality: TraitQuality;
  /** The trait revision the assessment was computed with. */
  revision: string;
  /** How the trait's markers matched the genotype (the match-rate report). */
  match?: MatchReport;
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

export interface AncestryEstimate {
  population: Population;
  /** Share of the nearest reference samples that belong to each super-population. */
  proportions: Record<Population, number>;
  markers_used: number;
  pcs: number[];
}

export interface AssessContext {
  /** Profile ethnicity 0–5 (0 = unknown → inferred population, else EUR by default). */
  ethnicity: number;
  /** Population inferred from the genotype at processing time, if any. */
  inferred: Population | null;
}

/** What the profile says about the person (build an AssessContext with assessContext()). */
export interface ProfileFacts {
  ethnicity: number;
  /** 0 unknown, 1 male, 2 female (spec enum). */
  gender: number;
}

/** What the stored genotype says about the person. */
export interface GenotypeFacts {
  ancestry: AncestryEstimate | null;
  inferredSex: 'male' | 'female' | null;
}

/** Why a trait has no assessment for this profile. */
export interface UnavailableReason {
  code: 'low_coverage' | 'not_applicable';
  /** A sentence for the person. */
  detail: string;
}

/** The outcome of scoring one trait: an assessment, or the reason there is none. */
export type TraitOutcome = { status: 'computed'; assessment: Assessment } | { status: 'unavailable'; reason: UnavailableReason };

export interface ScienceEngine {
  /** Every built-in trait, in catalog order. */
  traits: readonly TraitInfo[];
  trait(code: string): TraitInfo | undefined;
  /** True when enough of the trait's markers are genotyped to compute it. */
  isComputable(code: string, genotype: Genotype): boolean;
  /** The assessment, or null when the trait is not computable for this genotype. */
  assess(code: string, genotype: Genotype, context: AssessContext): Assessment | null;
  /** Super-population from the genotype (PCA model), or null when too few markers. */
  inferAncestry(genotype: Genotype): AncestryEstimate | null;
  /**
   * Scores many traits of one genotype at once (all of the engine's traits when `codes` is
   * omitted); unknown codes are left out of the result. The one entry point for batch
   * scoring: processing, background scoring and recomputation all go through it.
   */
  assessMany(genotype: Genotype, context: AssessContext, codes?: Iterable<string>): Map<string, TraitOutcome>;
}
