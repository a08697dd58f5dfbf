/**
 * The five 1000 Genomes super-populations, in the one order every per-population array,
 * table and file of the app uses (also the order of the API's ethnicity codes 1–5).
 */
export const POPULATIONS = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'] as const;
export type Population = (typeof POPULATIONS)[number];
