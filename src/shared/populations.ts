/**
 * The five 1000 Genomes super-populations, in the one order every per-population array,
 * table and file of the app uses (also the order of the API's ethnicity codes 1–5).
 */
export const POPULATIONS = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'] as const;
export type Population = (typeof POPULATIONS)[number];

/**
 * The one name of each super-population, on every screen, result text and report (the
 * profile's ethnicity choices are the interface's own words, src/shared/profile-fields.ts).
 */
export const POPULATION_NAMES: Record<Population, string> = {
  EUR: 'European',
  AMR: 'Admixed American',
  AFR: 'African',
  EAS: 'East Asian',
  SAS: 'South Asian',
};
