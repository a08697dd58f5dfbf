/**
 * The on-disk catalog format (resources/catalog/catalog.json.gz), shared by the build
 * script that writes it and the engine that loads it. One gzipped JSON document; each
 * trait carries its markers as parallel arrays so a reviewer can trace every number to
 * the study named in `source`.
 */
import { POPULATIONS, type Population } from '../../shared/populations.js';
import { recommendationTexts, type TextKind } from './recommendations.js';
import type { TraitInfo } from './types.js';

export const CATALOG_FORMAT = 2;
export const CATALOG_FILE = 'catalog/catalog.json.gz';

/** Reference-frequency columns: the super-populations in their one order (src/shared/populations.ts). */
export const POPULATION_ORDER = POPULATIONS;

export type WeightScale = 'beta' | 'ln_or' | 'mixed';

export interface CatalogMarkers {
  /** Numeric rsIDs, ascending. */
  rsid: number[];
  /** Effect allele letters, one character per marker (A/C/G/T), GRCh37 forward strand where checkable. */
  effect: string;
  /** Other allele letters, one per marker. */
  other: string;
  /** Weights in the study's scale (beta or ln OR). */
  weight: number[];
  /** Effect-allele frequency per 1000 Genomes super-population (POPULATION_ORDER keys). */
  freq: Record<(typeof POPULATION_ORDER)[number], number[]>;
  /**
   * Optional non-additive contributions, three per marker: the score added for 0, 1 and 2
   * copies of the effect allele (dominant w: 0, w, w; recessive: 0, 0, w; PGS Catalog
   * dosage_#_weight columns). Absent: additive, 0, w, 2w.
   */
  dosage_weights?: number[];
  /** p-value of each marker in its study, null where not given. */
  p?: Array<number | null>;
  /** Indices (into these arrays) of markers on the X chromosome: hemizygous in XY people. */
  x?: number[];
}

export interface CatalogSource {
  dataset: 'impute.me AllDiseases 2021-01-28' | 'impute.me UK Biobank 2017-09-28' | 'PGS Catalog';
  study_id: string;
  pmid: string | null;
  /** What the source says about this study, for traceability. */
  source_trait: string;
  /** Rows and markers of the source before cleaning and what was dropped, by reason. */
  source_rows: number;
  dropped: Record<string, number>;
}

/** A trait's frequency from one source: a cohort's case share, a lifetime risk or a prevalence. */
export interface BaselineFrequency {
  /** 0–1. */
  value: number;
  /** The sex the figure is for, or null for everyone. */
  sex: 'male' | 'female' | null;
  /** The super-population the figure is for, or null when the source's population is not one of them. */
  population: Population | null;
  measure: 'lifetime risk' | 'prevalence' | 'cohort share';
  /** When the figure applies, in words: "by age 85", "at some point in life", "UK Biobank volunteers aged 40–69". */
  horizon: string;
  /** Who measured it, in which people: "Lloyd-Jones et al. 2004, Framingham Heart Study (USA)". */
  source: string;
  pmid: string;
}

/**
 * What a score can mean in absolute terms (docs/science.md, "What a result means"): the
 * scale of its weights and the trait's frequency where a citable source gives one.
 */
export interface TraitBaseline {
  /**
   * log_odds: ln(OR) per allele (GWAS of yes/no traits); probability: change in the chance
   * per allele (UK Biobank round 1's linear models of yes/no answers); trait_units: betas
   * in the study's unit, not recorded in the source.
   */
  scale: 'log_odds' | 'probability' | 'trait_units';
  /** A yes/no trait (disease, answer) rather than a measurement. */
  binary: boolean;
  frequencies: BaselineFrequency[];
  /** What the frequency does not cover, for people (e.g. the UK Biobank cohort's ages). */
  limits: string | null;
  /** How the scale was read where the source does not state it, or null. */
  scale_note: string | null;
}

/** A trait as shipped: what the API shows (TraitInfo) plus what scoring needs. */
export interface CatalogTrait extends TraitInfo {
  weight_scale: WeightScale;
  /** Which recommendation template applies (recommendations.ts) … */
  text_kind: TextKind;
  /** … filled with this phrase ("type 2 diabetes"). */
  phrase: string;
  /** Own recommendation texts for levels 1–5, replacing the template (optional). */
  recommendations?: string[];
  source: CatalogSource;
  /** Scale and frequency for absolute terms; absent in imported scores (their weights' scale is unknown). */
  baseline?: TraitBaseline | null;
  markers: CatalogMarkers;
  /**
   * Imported scores without enough reference frequencies: results are the raw score and
   * the match rate, no percentile; their frequencies are null.
   */
  raw_score_only?: { reason: string };
  /**
   * Predictive power by the measure that picks a phenotype group's headline (docs/science.md,
   * section 7), set by the build; null when it cannot be computed. Absent in imported scores.
   */
  headline_power?: number | null;
}

/** The five recommendation texts of a trait definition. */
export function recommendationsOf(t: Pick<CatalogTrait, 'recommendations' | 'text_kind' | 'phrase'>): string[] {
  return t.recommendations ?? recommendationTexts(t.text_kind, t.phrase);
}

export interface CatalogFile {
  format: number;
  generated_by: string;
  populations: readonly string[];
  traits: CatalogTrait[];
}
