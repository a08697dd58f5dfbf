/**
 * Processing a profile's uploaded file, in an engine worker: parse it, infer ancestry,
 * score the traits the profile's client gets at once (its free traits and the ones it asked
 * for), and store genotype and results in one transaction. The previous genotype and its
 * results are only replaced once the new file has parsed. Every other trait is scored right
 * after, in the background (score-job.ts).
 */
import { getClient } from '../auth/clients.js';
import { writeRecoverable } from '../db/write-recoverable.js';
import { parseGenotypeFile, parseGenotypeSource, releaseParserMemory } from '../genotype/parse/index.js';
import {
  awaitReplaceConfirmation,
  genotypeFacts,
  genotypeSummary,
  getGenotypeFile,
  setFileStatus,
  storeGenotype,
} from '../genotype/genotype-store.js';
import {
  genomeConcern,
  notAGenomeReason,
  replacementConcern,
  unlikelyGenomeConcern,
} from '../genotype/plausibility.js';
import { loadPositionIndex } from '../genotype/positions.js';
import { profileOwner, setResultsReference } from '../profiles/profiles.js';
import { assessContext } from '../science/assess-context.js';
import { removeStoredFileNow, storedFilePath } from '../storage/file-store.js';
import { requestedCodes, writeOutcomes } from '../traits/assessment-store.js';
import { freeTraitCodes } from '../traits/client-traits.js';
import type { AncestryInference, Genotype, ParseSummary } from '../genotype/types.js';
import type { ArrivingFile } from './arriving-file.js';
import { scoreForStorage } from './score-job.js';
import type { WorkerContext } from './worker-context.js';

export type ProcessingOutcome =
  | { kind: 'processed'; snpCount: number }
  | { kind: 'failed'; reason: string }
  /** A newer upload arrived (or the profile was deleted) while this one was being read. */
  | { kind: 'superseded' };

/**
 * `arriving`: the upload is still being received (arriving-file.ts); it is parsed, and the
 * genotype prepared, as it comes in, and stored only once the service has recorded it as the
 * profile's file.
 */
export async function processFile(
  ctx: WorkerContext,
  profileId: string,
  fileName: string,
  arriving?: ArrivingFile,
): Promise<ProcessingOutcome> {
  const { db } = ctx;
  const recorded = getGenotypeFile(db, profileId);
  if (!arriving) {
    if (!recorded || recorded.file_name !== fileName) return { kind: 'superseded' };
    setFileStatus(db, profileId, 'processing', null, fileName);
  }
  ctx.progress({ stage: 'parsing' });
  const answer = recorded?.variants_only;
  const options = {
    vcfSample: recorded?.vcf_sample ?? undefined,
    // Loaded for a VCF only (a worker's first one): a chip file's parse never reads it.
    positionIndex: () => loadPositionIndex(ctx.resourcesDir),
    variantsOnly: answer === null || answer === undefined ? undefined : answer === 1,
  };
  const parsed = arriving
    ? await parseGenotypeSource(arriving.source, options).finally(() => arriving.source.close())
    : await parseGenotypeFile(storedFilePath(ctx.dataDir, fileName), options);
  releaseParserMemory(); // ~25 MB of parser memory this worker does not need until its next file
  // In a process of its own (a large file; engine-process.ts exposes the collector there) the
  // parser's memory, up to twice 12 bytes a marker, is collected now, not whenever V8 next
  // looks: the scoring that follows runs in the same process, beside other large jobs.
  (globalThis as { gc?: () => void }).gc?.();
  const prepared = parsed.ok ? prepare(ctx, profileId, parsed) : null;
  if (arriving && (await arriving.ended) === 'abandoned') return { kind: 'superseded' };

  const file = getGenotypeFile(db, profileId);
  if (!file || file.file_name !== fileName) return { kind: 'superseded' };
  // Recorded as 'uploaded' just now: the file shows as processing, as one queued after its upload would.
  if (arriving) setFileStatus(db, profileId, 'processing', null, fileName);
  if (!parsed.ok) {
    setFileStatus(db, profileId, 'failed', parsed.reason, fileName);
    return { kind: 'failed', reason: parsed.reason };
  }
  // Calls no person has: refused as a first upload, held back as a replacement.
  const inUse = genotypeSummary(db, profileId)?.summary ?? null;
  const notAGenome = genomeConcern(parsed.genotype, parsed.summary);
  if (notAGenome && !inUse) {
    const reason = notAGenomeReason(notAGenome);
    setFileStatus(db, profileId, 'failed', reason, fileName);
    return { kind: 'failed', reason };
  }
  // A much smaller or stranger file than the genotype in use waits for a confirmation.
  const concern = file.replace_confirmed
    ? null
    : notAGenome
      ? unlikelyGenomeConcern(notAGenome, profileId)
      : replacementConcern(inUse, parsed.summary, profileId);
  if (concern) {
    awaitReplaceConfirmation(db, profileId, fileName, concern);
    return { kind: 'failed', reason: concern };
  }
  if (!prepared) return { kind: 'superseded' };
  const { ancestry, outcomes, referenceKey } = prepared;
  ctx.progress({ stage: 'storing' });

  // Recoverable: a power cut that drops it leaves the file `processing`, and the next start processes it again.
  const stored = writeRecoverable(db, () => {
    const current = getGenotypeFile(db, profileId);
    if (!current || current.file_name !== fileName || !profileOwner(db, profileId)) return null;
    const result = storeGenotype(db, profileId, {
      genotype: parsed.genotype,
      summary: parsed.summary,
      ancestry,
      sourceMd5: current.md5_hash,
      sourceFile: fileName,
    });
    // Results of the previous genotype go; the background scoring fills in the rest. They
    // rest on the reference they were scored with (a change meanwhile queued a rescore).
    writeOutcomes(db, profileId, outcomes, { replaceAll: true });
    setResultsReference(db, profileId, referenceKey);
    setFileStatus(db, profileId, 'processed', null, fileName);
    return { ...result, sourceMd5: current.md5_hash };
  });
  if (stored === null) return { kind: 'superseded' };
  const { parsedAt, replacedSource, sourceMd5 } = stored;
  // The previous genotype's source file was kept until this one had parsed and was stored.
  if (replacedSource) removeStoredFileNow(ctx.dataDir, replacedSource);
  ctx.genotypes.remember(profileId, {
    genotype: parsed.genotype,
    summary: parsed.summary,
    ancestry,
    sourceMd5,
    parsedAt,
  });
  return { kind: 'processed', snpCount: parsed.summary.snp_count };
}

/**
 * What is stored with the genotype, worked out before the write transaction (so the
 * service's own writes are not held up, and, for an upload still arriving, while it arrives):
 * the ancestry estimate and the traits the profile's client gets at once (its free traits
 * and the ones it asked for). Null when the profile is gone.
 */
function prepare(
  ctx: WorkerContext,
  profileId: string,
  parsed: { genotype: Genotype; summary: ParseSummary },
): { ancestry: AncestryInference | null; outcomes: ReturnType<typeof scoreForStorage>; referenceKey: string } | null {
  const { db } = ctx;
  const engine = ctx.engine();
  const ancestry = engine.inferAncestry(parsed.genotype);
  const owner = profileOwner(db, profileId);
  if (!owner) return null;
  const client = getClient(db, owner.clientId);
  const first = new Set([...requestedCodes(db, profileId), ...(client ? freeTraitCodes(client, engine) : [])]);
  ctx.progress({ stage: 'scoring', done: 0, total: first.size });
  const facts = genotypeFacts({ ancestry, summary: parsed.summary });
  return {
    ancestry,
    outcomes: scoreForStorage(engine, parsed.genotype, assessContext(owner, facts), first),
    referenceKey: owner.referenceKey,
  };
}
