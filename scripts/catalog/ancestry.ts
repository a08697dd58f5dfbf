/** The PCA ancestry model shipped under resources/ancestry/, from impute.me's ethnicity module. */
import { join } from 'node:path';
import { readTsv } from './read.js';
import type { AncestryModelFile } from '../../src/service/science/ancestry.js';

export function buildAncestryModel(imputeMeDir: string): AncestryModelFile {
  const loadings = readTsv(join(imputeMeDir, 'ethnicity_2017-04-03_pca_snp_loadings.tsv'));
  const samples = readTsv(join(imputeMeDir, 'ethnicity_2017-04-03_1kg_sample_pcs.tsv'));
  const pcs = [1, 2, 3, 4, 5];
  // Sorted by numeric rsID so lookups can merge against a genotype's sorted rsids.
  loadings.sort((a, b) => Number(a.rowname.slice(2)) - Number(b.rowname.slice(2)));
  return {
    source: 'impute.me ethnicity 2017-04-03 (ethnicity_2017-04-03_pca_snp_loadings.tsv, ethnicity_2017-04-03_1kg_sample_pcs.tsv); 1000 Genomes phase 3',
    snps: {
      rsid: loadings.map((r) => Number(r.rowname.slice(2))),
      ref: loadings.map((r) => r.ref.toUpperCase()).join(''),
      alt: loadings.map((r) => r.alt.toUpperCase()).join(''),
      center: loadings.map((r) => Number(r.center)),
      scale: loadings.map((r) => Number(r.scale)),
      rotation: pcs.map((k) => loadings.map((r) => Number(r[`rot_PC${k}`]))),
    },
    samples: {
      id: samples.map((r) => r.rowname),
      pop: samples.map((r) => r.pop),
      super_pop: samples.map((r) => r.super_pop),
      pcs: pcs.map((k) => samples.map((r) => Number(r[`pos_PC${k}`]))),
    },
  };
}
