/**
 * `traitscope analyze FILE [--ethnicity N] [--variants-only yes|no] [--sample NAME] [--json]`: parse a raw-data
 * file and print every computable trait, without starting the server. Nothing is stored.
 */
import { parseGenotypeFile } from '../service/genotype/parse/index.js';
import { fileLimitsText } from '../shared/file-limits.js';
import { genotypeFacts } from '../service/genotype/genotype-store.js';
import { loadPositionIndex } from '../service/genotype/positions.js';
import { resolveConfig } from '../service/config.js';
import { assessContext, createScienceEngine } from '../service/science/index.js';
import type { Assessment, AssessContext, TraitInfo } from '../service/science/types.js';
import { SITE_READING_FROM_TEXT, SITE_READING_TEXT } from '../shared/site-reading.js';
import { parse, UsageError } from './args.js';

const USAGE =
  'traitscope analyze FILE [--ethnicity N] [--variants-only yes|no] [--sample NAME] [--json] [--resources DIR]\n' +
  '  --ethnicity N   0 unknown (inferred from the genotype), 1 European, 2 American (Hispanic or Latino),\n' +
  '                  3 African, 4 East Asian, 5 South Asian; default 0\n' +
  '  --variants-only yes: the VCF lists only the sites where the person differs from the reference\n' +
  '                  genome (every unlisted marker is read as REF/REF); no: it lists every site it\n' +
  "                  called. Default: decided from the file's header and contents\n" +
  '  --sample NAME   a VCF of several people: the sample to read (default: the first)\n' +
  '  --json          one JSON document instead of a table\n' +
  "  --resources DIR the folder holding catalog/ and ancestry/ (default: the app's resources)";

export async function analyzeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      ethnicity: { type: 'string' },
      'variants-only': { type: 'string' },
      sample: { type: 'string' },
      json: { type: 'boolean' },
      resources: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if (values.help) {
    console.log(`Usage: ${USAGE}`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError(`Give exactly one genotype file (got ${positionals.length}).\n\nUsage: ${USAGE}`);
  const ethnicity = values.ethnicity === undefined ? 0 : Number(values.ethnicity);
  if (!Number.isInteger(ethnicity) || ethnicity < 0 || ethnicity > 5) {
    throw new UsageError(
      `--ethnicity must be a whole number from 0 to 5 (got "${values.ethnicity}").\n\nUsage: ${USAGE}`,
    );
  }
  const answer = values['variants-only'];
  if (answer !== undefined && answer !== 'yes' && answer !== 'no')
    throw new UsageError(`--variants-only must be yes or no (got "${answer}").\n\nUsage: ${USAGE}`);
  const file = positionals[0];
  const resourcesDir = values.resources ?? resolveConfig().resourcesDir;
  const parsed = await parseGenotypeFile(file, {
    positionIndex: () => loadPositionIndex(resourcesDir),
    variantsOnly: answer === undefined ? undefined : answer === 'yes',
    vcfSample: values.sample,
  });
  if (!parsed.ok) {
    console.error(`Could not read ${file}: ${parsed.reason}`);
    return 1;
  }
  const engine = createScienceEngine({ resourcesDir });
  const started = performance.now();
  const ancestry = engine.inferAncestry(parsed.genotype);
  const context: AssessContext = assessContext(
    { ethnicity, gender: 0 },
    genotypeFacts({ ancestry, summary: parsed.summary }),
  );
  const results: Array<{ trait: TraitInfo; a: Assessment }> = [];
  for (const [code, outcome] of engine.assessMany(parsed.genotype, context)) {
    if (outcome.status === 'computed') results.push({ trait: engine.trait(code)!, a: outcome.assessment });
  }
  const elapsed = performance.now() - started;
  const reference = engine.reference(parsed.genotype, context);
  const population = reference.population;
  const populationSource = reference.source;

  if (values.json) {
    const doc = {
      file,
      summary: parsed.summary,
      ancestry,
      population,
      population_source: populationSource,
      reference,
      traits_in_catalog: engine.traits.length,
      traits_computed: results.length,
      traits: results.map(({ trait, a }) => ({
        code: trait.code,
        name: trait.name,
        category: trait.category,
        featured: trait.featured,
        connotation: trait.connotation,
        assessment_level: a.assessment_level,
        level_label: a.level_label,
        percentile: a.percentile,
        score: a.score,
        coverage: a.coverage,
        match: a.match,
        method: a.distribution?.method ?? null,
        evidence: a.evidence.label,
        study_id: trait.quality.study_id,
        pmid: trait.quality.pmid,
        snps: a.snps,
        revision: a.revision,
      })),
    };
    process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
    return 0;
  }

  const s = parsed.summary;
  const out: string[] = [];
  out.push(
    `${file}: ${s.vendor} (${s.format}), ${s.snp_count.toLocaleString('en-US')} markers, call rate ${(100 * s.call_rate).toFixed(1)} %${s.build ? `, build ${s.build}` : ''}`,
  );
  if (s.format === 'vcf' && s.site_reading) {
    const from = s.site_reading_from ? ` (${SITE_READING_FROM_TEXT[s.site_reading_from]})` : '';
    const other =
      s.site_reading === 'variants_only'
        ? ' If the file lists every site it called, run again with --variants-only no.'
        : s.site_reading === 'as_listed'
          ? ' If it lists only the sites where you differ from the reference, run again with --variants-only yes.'
          : '';
    out.push(`Sites: ${SITE_READING_TEXT[s.site_reading]}${from}.${other}`);
  }
  // What the reading found worth saying (the build a header got wrong, lines not used, …), as the app shows it.
  for (const note of s.notes) out.push(`Note: ${note}`);
  if (ancestry.best) {
    const shares = Object.entries(ancestry.proportions)
      .filter(([, v]) => v >= 0.01)
      .sort((x, y) => y[1] - x[1])
      .map(([k, v]) => `${k} ${(100 * v).toFixed(0)} %`)
      .join(', ');
    out.push(
      `Ancestry (${ancestry.method}, ${ancestry.markers_used} markers): most likely ${ancestry.best}, proportions ${shares}${ancestry.sufficient ? '' : ' — not enough evidence to rely on'}`,
    );
  } else {
    out.push(`Ancestry: ${ancestry.reason ?? 'not estimated.'}`);
  }
  out.push(
    `Reference population: ${reference.label} (${populationSource === 'ethnicity' ? 'from --ethnicity' : populationSource}). ${reference.reason}`,
  );
  out.push(`${results.length} of ${engine.traits.length} traits computable (${elapsed.toFixed(0)} ms).`);
  // Such a file misses markers it may well hold: the others should not read as a poor file.
  if (context.fileLimits) out.push(`Why not more: ${fileLimitsText(context.fileLimits)}`);
  out.push('');
  const sorted = [...results].sort(
    (x, y) =>
      Number(y.trait.featured) - Number(x.trait.featured) ||
      x.trait.category.localeCompare(y.trait.category) ||
      x.trait.name.localeCompare(y.trait.name),
  );
  out.push(['Level', 'Pctl', 'Cover', 'Evidence', 'Trait', 'Code'].join('\t'));
  for (const { trait, a } of sorted) {
    out.push(
      [
        `${a.assessment_level} ${a.level_label}`,
        a.percentile === null ? '—' : a.percentile.toFixed(1),
        `${(100 * a.coverage).toFixed(0)}%`,
        a.evidence.label,
        `${trait.featured ? '' : '· '}${trait.name}`,
        trait.code,
      ].join('\t'),
    );
  }
  out.push(
    '',
    'Levels: 1 = lowest genetic score … 5 = highest, against the reference population. Most genetic scores explain only a small part of a trait; see docs/science.md.',
  );
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}
