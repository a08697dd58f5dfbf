/**
 * /api/profiles/{id}/genotype/: metadata of the uploaded file, time-limited upload URLs,
 * synchronous processing, and marker look-ups for third-party tools.
 */
import type { Router } from 'express';
import {
  MAX_SNP_LOOKUP,
  MAX_VCF_SAMPLE_NAME,
  SnpLookupRequest,
  UPLOAD_CONTENT_TYPES,
  type GenotypeMetadata,
  type GenotypeSnp,
} from '../../../shared/api.js';
import { callToString, chromToString, findRsid } from '../../genotype/encoding.js';
import { unknownSampleText } from '../../genotype/parse/detect.js';
import {
  confirmReplacement,
  genotypeFacts,
  genotypeSourceFile,
  genotypeSummary,
  getGenotypeFile,
  setVariantsOnly,
  setVcfSample,
} from '../../genotype/genotype-store.js';
import { assessContext } from '../../science/assess-context.js';
import { sexOf } from '../../science/engine.js';
import { chooseReference } from '../../science/reference-population.js';
import type { AncestryInference, ProfileFacts } from '../../science/types.js';
import type { ParseSummary } from '../../genotype/types.js';
import { resultsOutdated } from '../../profiles/profiles.js';
import { makeUploadUrl } from '../../storage/upload-url.js';
import { origin, type ServiceContext } from '../context.js';
import { requireGenotype } from '../genotype-required.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';
import { requireProfile } from './profiles.js';

type GenotypeFileType = (typeof UPLOAD_CONTENT_TYPES)[number];

/**
 * What every result of the profile rests on, as the scoring path decides it
 * (science/assess-context.ts): the ancestry estimate, the reference population and how it
 * was chosen, and the sex results use. Shown beside the file so nothing is silent.
 */
function personFacts(profile: ProfileFacts, inUse: { summary: ParseSummary; ancestry: AncestryInference | null }) {
  const context = assessContext(profile, genotypeFacts(inUse));
  return { ancestry: inUse.ancestry, reference: chooseReference(context, inUse.ancestry), sex: sexOf(context) };
}

export function genotypeRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');

  on('getGenotypeMetadata', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const file = getGenotypeFile(ctx.db, profile.id);
    if (!file) return void res.json({});
    const inUse = genotypeSummary(ctx.db, profile.id);
    const body: GenotypeMetadata = {
      content_type: file.content_type as GenotypeFileType,
      size: String(file.size),
      md5_hash: file.md5_hash,
      crc32c: file.crc32c,
      created_at: file.created_at,
      updated_at: file.updated_at,
      metadata: {
        status: file.status,
        error: file.error,
        // Results being rescored for a changed reference (profiles/profiles.ts resultsOutdated).
        ...(resultsOutdated(ctx.db, profile.id) ? { results_updating: true } : {}),
        // The file parsed but is much smaller or stranger than the genotype in use (genotype/plausibility.ts).
        ...(file.needs_confirmation ? { needs_confirmation: true } : {}),
        // The summary describes the genotype in use: after a failed upload, the previous one.
        ...(inUse ? { ...inUse.summary, ...personFacts(profile, inUse) } : {}),
      },
    };
    res.json(body);
  });

  on('getUploadUrl', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const requested = req.query['content-type'] ?? req.query['content_type'];
    const contentType = requested === undefined || requested === '' ? 'text/plain' : requested;
    if (typeof contentType !== 'string' || !(UPLOAD_CONTENT_TYPES as readonly string[]).includes(contentType)) {
      throw new HttpError(
        400,
        `content-type must be one of ${UPLOAD_CONTENT_TYPES.join(', ')} (got ${JSON.stringify(contentType)}).`,
      );
    }
    const expires = Math.floor(Date.now() / 1000) + ctx.config.uploadUrlTtlSeconds;
    res.json({ url: makeUploadUrl(origin(ctx), ctx.uploadKey, { profileId: profile.id, expires, contentType }) });
  });

  on('processGenotype', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const recorded = getGenotypeFile(ctx.db, profile.id);
    if (!recorded) {
      throw new HttpError(
        401,
        'No genetic data has been uploaded for this profile yet. Upload a file to the URL from GET .../genotype/upload/ first.',
      );
    }
    const confirm = req.query.confirm_replace;
    if (confirm !== undefined && confirm !== 'true' && confirm !== 'false') {
      throw new HttpError(400, `confirm_replace must be true or false (got ${JSON.stringify(confirm)}).`);
    }
    const variantsOnly = req.query.variants_only;
    if (variantsOnly !== undefined && variantsOnly !== 'true' && variantsOnly !== 'false') {
      throw new HttpError(400, `variants_only must be true or false (got ${JSON.stringify(variantsOnly)}).`);
    }
    const sample = req.query.sample;
    if (
      sample !== undefined &&
      (typeof sample !== 'string' ||
        sample.length === 0 ||
        sample.length > MAX_VCF_SAMPLE_NAME ||
        /[\t\r\n]/.test(sample))
    ) {
      throw new HttpError(
        400,
        `sample must be the name of one of the VCF's samples (vcf_samples in the genotype's metadata), 1 to ${MAX_VCF_SAMPLE_NAME} characters without tabs or line breaks (got ${JSON.stringify(sample)}).`,
      );
    }
    // When the genotype in use was read from this very file, its samples are known: a name it
    // lacks is refused before it is stored, so later processing does not keep failing on it.
    const samples =
      sample !== undefined && genotypeSourceFile(ctx.db, profile.id) === recorded.file_name
        ? genotypeSummary(ctx.db, profile.id)?.summary.vcf_samples
        : undefined;
    if (sample !== undefined && samples && !samples.includes(sample))
      throw new HttpError(422, unknownSampleText(sample, samples));
    if (confirm === 'true') confirmReplacement(ctx.db, profile.id);
    if (variantsOnly !== undefined) setVariantsOnly(ctx.db, profile.id, variantsOnly === 'true');
    if (sample !== undefined) setVcfSample(ctx.db, profile.id, sample);
    let outcome = await ctx.processor.process(profile.id);
    // A newer upload replaced the file mid-way: process the newest one.
    if (outcome.kind === 'superseded' && getGenotypeFile(ctx.db, profile.id))
      outcome = await ctx.processor.process(profile.id);
    if (outcome.kind === 'failed') throw new HttpError(422, outcome.reason);
    if (outcome.kind === 'superseded')
      throw new HttpError(404, 'The profile was deleted while its file was being processed.');
    res.json({ detail: `Processing finished: ${outcome.snpCount} markers read.` });
  });

  /** The genotypes of the requested rsIDs in the genotype in use, in request order. */
  const lookUp = (profileId: string, ids: string[]): GenotypeSnp[] => {
    if (ids.length === 0)
      throw new HttpError(400, 'Give the markers to look up: ?rsid=rs4988235,rs12913832 (or POST ["rs4988235", ...]).');
    if (ids.length > MAX_SNP_LOOKUP)
      throw new HttpError(400, `At most ${MAX_SNP_LOOKUP} markers per request (got ${ids.length}); split the list.`);
    const bad = ids.find((id) => !/^rs\d{1,10}$/i.test(id));
    if (bad !== undefined) throw new HttpError(400, `"${bad}" is not an rsID; rsIDs look like rs4988235.`);
    const stored = requireGenotype(ctx, profileId);
    const { rsids, calls, chroms, positions } = stored.genotype;
    const out: GenotypeSnp[] = [];
    for (const id of ids) {
      const i = findRsid(rsids, Number(id.slice(2)));
      if (i < 0) continue; // not genotyped: left out
      out.push({
        rsid: `rs${rsids[i]}`,
        chromosome: chroms[i] ? chromToString(chroms[i]) : null,
        position: positions[i] || null,
        genotype: callToString(calls[i]),
      });
    }
    return out;
  };

  on('lookupSnps', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const raw = ([] as unknown[]).concat(req.query.rsid ?? []);
    res.json(
      lookUp(
        profile.id,
        raw
          .flatMap((v) => String(v).split(','))
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    );
  });

  on('lookupSnpsInBody', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const parsed = SnpLookupRequest.safeParse(req.body);
    if (!parsed.success) {
      throw new HttpError(
        400,
        `The body must be a JSON array of at most ${MAX_SNP_LOOKUP} rsIDs, or {"rsids": [...]}, e.g. ["rs4988235", "rs12913832"].`,
      );
    }
    const ids = Array.isArray(parsed.data) ? parsed.data : parsed.data.rsids;
    res.json(
      lookUp(
        profile.id,
        ids.map((s) => s.trim()),
      ),
    );
  });

  return router;
}
