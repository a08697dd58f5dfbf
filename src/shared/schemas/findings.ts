/** Single-variant findings (src/service/science/findings.ts): curated statements with their PubMed ids. */
import { z } from 'zod';

const FindingStatement = z
  .object({ text: z.string(), pmid: z.string(), clinical: z.boolean().describe('About a disease or cancer.') })
  .meta({ id: 'FindingStatement', description: 'One qualitative sentence and the study it rests on.' });

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
        state: z.enum(['called', 'missing', 'no_call', 'mismatch']),
        strand_flipped: z.boolean(),
      }),
    ),
    statements: z.array(FindingStatement),
    limits: z.array(FindingStatement).describe('What a consumer chip can and cannot tell about this finding.'),
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
