/** Single-variant findings (src/service/science/findings.ts): curated statements with their PubMed ids. */
import { z } from 'zod';

const FindingStatement = z
  .object({ text: z.string(), pmid: z.string(), clinical: z.boolean().describe('About a disease or cancer.') })
  .meta({ id: 'FindingStatement', description: 'One qualitative sentence and the study it rests on.' });

const CallReliability = z
  .object({
    population: z.string().describe('The reference population, in words.'),
    frequency: z.number().min(0).max(1).describe('Frequency of the variant allele in that reference (1000 Genomes).'),
    frequency_observed: z
      .boolean()
      .describe('false: 1000 Genomes did not see the allele there; half a copy among its chromosomes is used.'),
    error_rate: z.number().describe('Genotyping error rate assumed per call.'),
    positive_predictive_value: z
      .number()
      .min(0)
      .max(1)
      .describe('Chance that a carrier call is right: c(1 − e) / (c(1 − e) + (1 − c)e), c = 1 − (1 − frequency)².'),
  })
  .meta({
    id: 'CallReliability',
    description: "How far a chip call of the variant can be trusted in the person's reference population.",
  });

const FindingFlag = z
  .object({
    code: z
      .enum(['single_letter_call', 'implausible_combination', 'rare_in_reference'])
      .describe(
        'single_letter_call: one letter on an autosome, read as a no-call; implausible_combination: the calls together are very unlikely; rare_in_reference: the variant is rarer than 1 % in the reference, so its call is less reliable.',
      ),
    text: z.string(),
  })
  .meta({ id: 'FindingFlag', description: 'Something about the reading a person must not miss.' });

export const Finding = z
  .object({
    code: z.enum(['apoe', 'factor_v_leiden', 'hfe', 'lactase_persistence', 'aldh2']),
    name: z.string(),
    gene: z.string(),
    clinical: z.boolean().describe('About a disease risk: the desktop UI shows it only after the person opted in.'),
    status: z
      .enum(['determined', 'partial', 'not_tested'])
      .describe('determined: every marker read; partial: some; not_tested: none.'),
    result: z.string().nullable().describe('The short answer, e.g. "ε3/ε4"; null when not determined.'),
    summary: z.string(),
    markers: z.array(
      z.object({
        rsid: z.string(),
        role: z.string(),
        genotype: z.string().nullable().describe('As in the file; null when the file lacks the marker.'),
        copies: z
          .int()
          .nullable()
          .describe('Copies of the variant allele; null when missing, not called or not matching.'),
        state: z
          .enum(['called', 'missing', 'no_call', 'mismatch'])
          .describe('no_call includes a single letter: every marker read here is on an autosome.'),
        strand_flipped: z.boolean(),
        reliability: CallReliability.nullable().describe('Set when at least one copy of the variant was called.'),
      }),
    ),
    statements: z.array(FindingStatement),
    limits: z.array(FindingStatement).describe('What a consumer chip can and cannot tell about this finding.'),
    flags: z.array(FindingFlag),
  })
  .meta({
    id: 'Finding',
    description: 'A single-variant finding with curated, cited statements (docs/ui.md, "Single-variant findings").',
  });
export type Finding = z.infer<typeof Finding>;

export const FindingsResponse = z
  .object({
    findings: z.array(Finding),
    genes: z.record(z.string(), z.array(z.string())).describe('Genes with findings and the rsIDs read for each.'),
    sources: z.record(z.string(), z.string()).describe('The paper behind each PubMed id cited.'),
  })
  .meta({ id: 'FindingsResponse' });
export type FindingsResponse = z.infer<typeof FindingsResponse>;
