/** Drug–gene results (src/service/science/pharmacogenes, docs/pharmacogenes.md). */
import { z } from 'zod';

const PharmacogenePosition = z
  .object({
    rsid: z.string().nullable().describe('e.g. "rs4244285"; null where the position has no rsID.'),
    grch38: z.int().describe('1-based GRCh38 position (the definitions’ own).'),
    grch37: z
      .int()
      .nullable()
      .describe('1-based GRCh37 position lifted with UCSC’s chain; null when it does not lift.'),
    genotype: z
      .string()
      .nullable()
      .describe(
        'As in the file ("AG", "--"; at an indel with several ALTs, its two alleles as sequences, "CAT/CATAT"); null when the file lacks the position.',
      ),
    strand_flipped: z.boolean().describe('Read on the opposite strand: the letters were complemented.'),
    problem: z.string().nullable().describe('Why a present position was not used; null when it was read.'),
  })
  .meta({ id: 'PharmacogenePosition' });

export const PharmacogeneResult = z
  .object({
    gene: z.string(),
    status: z
      .enum(['called', 'ambiguous', 'not_determinable', 'not_tested'])
      .describe(
        'called: exactly one pair of named alleles fits what the file shows; ambiguous: several fit (see candidates); not_determinable: too little was read, nothing fits, or a chip cannot tell this gene (CYP2D6); not_tested: the file reads none of its positions.',
      ),
    diplotype: z.string().nullable().describe('e.g. "*1/*2", in the definitions’ allele names; null unless called.'),
    candidates: z.array(z.string()).describe('Every diplotype of named alleles that fits what was read.'),
    phenotype: z
      .string()
      .nullable()
      .describe(
        'The phenotype mapping’s text, e.g. "Intermediate Metabolizer"; given when every candidate agrees, else null.',
      ),
    activity_score: z
      .string()
      .nullable()
      .describe('CPIC activity score where the gene has one and the candidates agree.'),
    candidate_phenotypes: z
      .array(z.string().nullable())
      .describe('The distinct phenotypes of the candidates (null: unmapped).'),
    phenotypes_agree: z.boolean(),
    alleles_not_ruled_out: z.array(z.string()).describe('Alleles in at least one candidate.'),
    alleles_unseen: z
      .array(z.string())
      .describe('Alleles none of whose own positions was read: the file cannot see them.'),
    positions: z.object({
      read: z.array(PharmacogenePosition),
      missing: z.array(PharmacogenePosition).describe('Not in the file; never taken as the reference allele.'),
      no_call: z
        .array(PharmacogenePosition)
        .describe('In the file without a usable call; never taken as the reference allele.'),
    }),
    variants: z
      .array(
        z.object({
          allele: z.string(),
          rsid: z.string().nullable(),
          copies: z.int(),
          function: z.string().nullable(),
          activity: z.string().nullable(),
        }),
      )
      .describe('DPYD’s convention: each non-reference variant read, with its function. Empty for other genes.'),
    summary: z.string().describe('The result in one plain sentence.'),
    medicines: z
      .array(z.object({ medicine: z.string(), text: z.string(), pmid: z.string(), guideline: z.string() }))
      .describe(
        'Medicines with CPIC guidance this result affects, in plain words, with the guideline. Empty unless the phenotype is known.',
      ),
    cautions: z.array(z.object({ text: z.string(), pmid: z.string().nullable() })),
    versions: z.object({
      definitions: z.string().describe('Version of the allele definitions (CPIC/PharmVar via PharmCAT).'),
      phenotypes: z.string().nullable(),
      modified: z.string(),
      source: z.string(),
    }),
  })
  .meta({
    id: 'PharmacogeneResult',
    description:
      'One gene’s drug–gene result. Clinically meaningful: the desktop UI shows it only after the person opted in, like the clinical single-variant findings.',
  });
export type PharmacogeneResult = z.infer<typeof PharmacogeneResult>;

export const PharmacogeneList = z.array(PharmacogeneResult).meta({ id: 'PharmacogeneList' });
export type PharmacogeneList = z.infer<typeof PharmacogeneList>;
