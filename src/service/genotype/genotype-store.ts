/**
 * Storage of a profile's genotype: the latest uploaded file's record (hashes, processing
 * state) and the parsed genotype in use, as four blobs of typed arrays.
 */
import type { Db } from '../db/db.js';
import { namedStatements } from '../db/statements.js';
import { writeWhenFree } from '../db/write-when-free.js';
import { fileLimitsOf } from '../../shared/file-limits.js';
import type { AncestryInference, Genotype, GenotypeFacts, ParseSummary } from './types.js';

export type FileStatus = 'uploaded' | 'processing' | 'processed' | 'failed';

export interface GenotypeFileRecord {
  profile_id: string;
  file_name: string;
  content_type: string;
  size: number;
  md5_hash: string;
  crc32c: string;
  created_at: string;
  updated_at: string;
  status: FileStatus;
  error: string | null;
  /** 1 while the file waits for a confirmation to replace the genotype in use (plausibility.ts). */
  needs_confirmation: number;
  /** 1 once the client confirmed that this file may replace the genotype in use. */
  replace_confirmed: number;
  /** The person's answer for a VCF: 1 it lists variants only, 0 every called site; null: the file decides (parse/sites.ts). */
  variants_only: number | null;
  /** The sample column of a VCF of several people to read (null: the first). */
  vcf_sample: string | null;
}

export interface StoredGenotype {
  genotype: Genotype;
  summary: ParseSummary;
  /** The ancestry estimate made when the file was processed; null when none (or of an older format: estimated again when scoring). */
  ancestry: AncestryInference | null;
  sourceMd5: string;
  parsedAt: string;
}

export interface GenotypeToStore extends Omit<StoredGenotype, 'parsedAt'> {
  /** The uploaded file it was parsed from: kept on disk while this genotype is in use. */
  sourceFile?: string | null;
}

interface GenotypeRow {
  rsids: Buffer;
  calls: Buffer;
  chroms: Buffer;
  positions: Buffer;
  summary: string;
  ancestry: string | null;
  source_md5: string;
  parsed_at: string;
}

/**
 * Records the person's answer on how to read the latest file (a column of genotype_files).
 * A changed answer reads the same file again, and the person asked for it: no second
 * confirmation to replace the genotype in use.
 */
function setAnswerSql(column: 'variants_only' | 'vcf_sample'): string {
  return `UPDATE genotype_files SET
       status = CASE WHEN ${column} IS @answer THEN status ELSE 'uploaded' END,
       error = CASE WHEN ${column} IS @answer THEN error ELSE NULL END,
       replace_confirmed = CASE WHEN ${column} IS @answer THEN replace_confirmed ELSE 1 END,
       needs_confirmation = CASE WHEN ${column} IS @answer THEN needs_confirmation ELSE 0 END,
       ${column} = @answer
     WHERE profile_id = @profile_id`;
}

const statements = namedStatements((db: Db) => ({
  file: db.prepare<[string], GenotypeFileRecord>('SELECT * FROM genotype_files WHERE profile_id = ?'),
  upsertFile: db.prepare<
    [
      {
        profile_id: string;
        file_name: string;
        content_type: string;
        size: number;
        md5_hash: string;
        crc32c: string;
        now: string;
      },
    ]
  >(
    `INSERT INTO genotype_files (profile_id, file_name, content_type, size, md5_hash, crc32c, created_at, updated_at, status)
     VALUES (@profile_id, @file_name, @content_type, @size, @md5_hash, @crc32c, @now, @now, 'uploaded')
     ON CONFLICT (profile_id) DO UPDATE SET
       file_name = @file_name, content_type = @content_type, size = @size, md5_hash = @md5_hash, crc32c = @crc32c,
       updated_at = @now, status = 'uploaded', error = NULL, needs_confirmation = 0, replace_confirmed = 0,
       variants_only = NULL, vcf_sample = NULL`,
  ),
  // A failure keeps the file's needs_confirmation (the processor re-records the worker's outcome).
  setStatusIfFile: db.prepare<{ status: string; error: string | null; profile_id: string; file_name: string | null }>(
    `UPDATE genotype_files SET status = @status, error = @error,
       needs_confirmation = CASE WHEN @status = 'failed' THEN needs_confirmation ELSE 0 END
     WHERE profile_id = @profile_id AND (@file_name IS NULL OR file_name = @file_name)`,
  ),
  awaitConfirmation: db.prepare<[string, string, string]>(
    "UPDATE genotype_files SET status = 'failed', error = ?, needs_confirmation = 1 WHERE profile_id = ? AND file_name = ?",
  ),
  // A file held back for confirmation goes back to the queue's state, so processing reads it again.
  confirm: db.prepare<[string]>(
    `UPDATE genotype_files SET replace_confirmed = 1,
       status = CASE WHEN needs_confirmation = 1 THEN 'uploaded' ELSE status END,
       error = CASE WHEN needs_confirmation = 1 THEN NULL ELSE error END,
       needs_confirmation = 0
     WHERE profile_id = ?`,
  ),
  setVariantsOnly: db.prepare<{ answer: number; profile_id: string }>(setAnswerSql('variants_only')),
  setVcfSample: db.prepare<{ answer: string; profile_id: string }>(setAnswerSql('vcf_sample')),
  sourceFile: db.prepare<[string], { source_file: string | null }>(
    'SELECT source_file FROM genotypes WHERE profile_id = ?',
  ),
  referenced: db.prepare<[], { file_name: string }>(
    'SELECT file_name FROM genotype_files UNION SELECT source_file FROM genotypes WHERE source_file IS NOT NULL',
  ),
  genotype: db.prepare<[string], GenotypeRow>('SELECT * FROM genotypes WHERE profile_id = ?'),
  genotypeVersion: db.prepare<[string], { parsed_at: string }>('SELECT parsed_at FROM genotypes WHERE profile_id = ?'),
  upsertGenotype: db.prepare<
    [string, Buffer, Buffer, Buffer, Buffer, string, string | null, string, string | null, string]
  >(
    `INSERT OR REPLACE INTO genotypes (profile_id, rsids, calls, chroms, positions, summary, ancestry, source_md5, source_file, parsed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  summary: db.prepare<[string], { summary: string; ancestry: string | null }>(
    'SELECT summary, ancestry FROM genotypes WHERE profile_id = ?',
  ),
  interrupted: db.prepare<[], { profile_id: string }>(
    "SELECT profile_id FROM genotype_files WHERE status IN ('uploaded', 'processing')",
  ),
  withGenotype: db.prepare<[], { profile_id: string }>('SELECT profile_id FROM genotypes'),
  // Ids are sorted ascending: the last four bytes of each rsids blob are its largest.
  largestIds: db.prepare<[], { last: Buffer | null }>('SELECT substr(rsids, -4) AS last FROM genotypes'),
  extendGenotype: db.prepare<{
    profile_id: string;
    was: string;
    parsed_at: string;
    rsids: Buffer;
    calls: Buffer;
    chroms: Buffer;
    positions: Buffer;
  }>(
    `UPDATE genotypes SET rsids = @rsids, calls = @calls, chroms = @chroms, positions = @positions, parsed_at = @parsed_at
     WHERE profile_id = @profile_id AND parsed_at = @was`,
  ),
}));

export function getGenotypeFile(db: Db, profileId: string): GenotypeFileRecord | undefined {
  return statements(db).file.get(profileId);
}

/**
 * Records a completed upload. Returns the previous upload if nothing needs it any more (to
 * delete): the source file of the genotype in use is kept until another file has parsed.
 * Runs on the event loop, so it waits for a worker's write without blocking (writeWhenFree).
 */
export function recordUpload(
  db: Db,
  profileId: string,
  upload: { fileName: string; contentType: string; size: number; md5: string; crc32c: string },
): Promise<string | undefined> {
  const st = statements(db);
  // IMMEDIATE: a deferred transaction that reads first cannot wait for a worker's write (SQLITE_BUSY).
  return writeWhenFree(db, () => {
    const previous = st.file.get(profileId)?.file_name;
    const inUse = st.sourceFile.get(profileId)?.source_file;
    st.upsertFile.run({
      profile_id: profileId,
      file_name: upload.fileName,
      content_type: upload.contentType,
      size: upload.size,
      md5_hash: upload.md5,
      crc32c: upload.crc32c,
      now: new Date().toISOString(),
    });
    return previous !== undefined && previous !== inUse && previous !== upload.fileName ? previous : undefined;
  });
}

export function setFileStatus(
  db: Db,
  profileId: string,
  status: FileStatus,
  error: string | null = null,
  fileName?: string,
): void {
  statements(db).setStatusIfFile.run({ status, error, profile_id: profileId, file_name: fileName ?? null });
}

/** The file parsed, but is unlikely to be meant to replace the genotype in use: it waits for a confirmation. */
export function awaitReplaceConfirmation(db: Db, profileId: string, fileName: string, reason: string): void {
  statements(db).awaitConfirmation.run(reason, profileId, fileName);
}

/**
 * Records the person's answer on how the latest file's unlisted VCF sites are read; a
 * changed answer queues the file to be read again.
 */
export function setVariantsOnly(db: Db, profileId: string, variantsOnly: boolean): void {
  statements(db).setVariantsOnly.run({ answer: variantsOnly ? 1 : 0, profile_id: profileId });
}

/** Records which sample of a VCF of several people is the profile's; another one queues the file to be read again. */
export function setVcfSample(db: Db, profileId: string, sample: string): void {
  statements(db).setVcfSample.run({ answer: sample, profile_id: profileId });
}

/** The client confirms that the profile's latest upload may replace the genotype in use. */
export function confirmReplacement(db: Db, profileId: string): void {
  statements(db).confirm.run(profileId);
}

/** Every stored file something refers to: latest uploads and the sources of genotypes in use. */
export function referencedFiles(db: Db): Set<string> {
  return new Set(
    statements(db)
      .referenced.all()
      .map((r) => r.file_name),
  );
}

/** Profiles whose file was uploaded or processing when the service last stopped. */
export function interruptedProfiles(db: Db): string[] {
  return statements(db)
    .interrupted.all()
    .map((r) => r.profile_id);
}

/** Profiles that have a parsed genotype in use. */
export function profilesWithGenotype(db: Db): string[] {
  return statements(db)
    .withGenotype.all()
    .map((r) => r.profile_id);
}

function view<T extends Uint8Array | Uint32Array>(
  buf: Buffer,
  Kind: { new (b: ArrayBuffer, o: number, l: number): T; BYTES_PER_ELEMENT: number },
): T {
  const n = buf.byteLength / Kind.BYTES_PER_ELEMENT;
  if (buf.byteOffset % Kind.BYTES_PER_ELEMENT === 0) return new Kind(buf.buffer as ArrayBuffer, buf.byteOffset, n);
  // Misaligned (pooled) buffer: copy into its own aligned memory.
  const copy = new Uint8Array(buf);
  return new Kind(copy.buffer, 0, n);
}

function blob(array: Uint8Array | Uint32Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Stores the genotype in use (call inside the transaction that checks it is still wanted).
 * Returns its version stamp and the source file of the genotype it replaced, which nothing
 * needs any more once this transaction commits (unless it is the same file).
 */
export function storeGenotype(
  db: Db,
  profileId: string,
  stored: GenotypeToStore,
): { parsedAt: string; replacedSource: string | null } {
  const parsedAt = new Date().toISOString();
  const g = stored.genotype;
  const st = statements(db);
  const previousSource = st.sourceFile.get(profileId)?.source_file ?? null;
  const sourceFile = stored.sourceFile ?? null;
  st.upsertGenotype.run(
    profileId,
    blob(g.rsids),
    blob(g.calls),
    blob(g.chroms),
    blob(g.positions),
    JSON.stringify(stored.summary),
    stored.ancestry ? JSON.stringify(stored.ancestry) : null,
    stored.sourceMd5,
    sourceFile,
    parsedAt,
  );
  return { parsedAt, replacedSource: previousSource !== sourceFile ? previousSource : null };
}

export function loadGenotype(db: Db, profileId: string): StoredGenotype | undefined {
  const row = statements(db).genotype.get(profileId);
  if (!row) return undefined;
  return {
    genotype: {
      rsids: view(row.rsids, Uint32Array),
      calls: view(row.calls, Uint8Array),
      chroms: view(row.chroms, Uint8Array),
      positions: view(row.positions, Uint32Array),
    },
    summary: JSON.parse(row.summary) as ParseSummary,
    ancestry: parseAncestry(row.ancestry),
    sourceMd5: row.source_md5,
    parsedAt: row.parsed_at,
  };
}

/** The stored file the genotype in use was parsed from (in the file store), or null. */
export function genotypeSourceFile(db: Db, profileId: string): string | null {
  return statements(db).sourceFile.get(profileId)?.source_file ?? null;
}

/** The largest marker id any stored genotype holds (0 when none). */
export function largestGenotypeMarkerId(db: Db): number {
  let largest = 0;
  for (const { last } of statements(db).largestIds.all())
    if (last && last.length === 4) largest = Math.max(largest, last.readUInt32LE(0));
  return largest;
}

/**
 * Adds rows to the genotype in use, when it is still the version `parsedAt`: calls a PGS
 * import read from the person's file at sites its parse did not keep (their ids, above every
 * id stored, sort after its rows). The version changes, so what holds the old one in memory
 * reads it again. Returns false, changing nothing, when another genotype replaced it meanwhile.
 */
export function addGenotypeRows(db: Db, profileId: string, parsedAt: string, rows: Genotype): boolean {
  const stored = loadGenotype(db, profileId);
  if (!stored || stored.parsedAt !== parsedAt) return false;
  const g = stored.genotype;
  const n = g.rsids.length;
  if (rows.rsids.length > 0 && n > 0 && rows.rsids[0] <= g.rsids[n - 1])
    throw new Error('Rows added to a genotype must have ids above its own.');
  const joined = <T extends Uint8Array | Uint32Array>(a: T, b: T, Kind: { new (length: number): T }): Buffer => {
    const out = new Kind(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return blob(out);
  };
  // A new stamp even within the same millisecond as the old one.
  let next = new Date().toISOString();
  if (next <= parsedAt) next = new Date(Date.parse(parsedAt) + 1).toISOString();
  return (
    statements(db).extendGenotype.run({
      profile_id: profileId,
      was: parsedAt,
      parsed_at: next,
      rsids: joined(g.rsids, rows.rsids, Uint32Array),
      calls: joined(g.calls, rows.calls, Uint8Array),
      chroms: joined(g.chroms, rows.chroms, Uint8Array),
      positions: joined(g.positions, rows.positions, Uint32Array),
    }).changes === 1
  );
}

/** The parsed_at stamp of the genotype in use: changes whenever a new genotype is stored. */
export function genotypeVersion(db: Db, profileId: string): string | undefined {
  return statements(db).genotypeVersion.get(profileId)?.parsed_at;
}

export function genotypeSummary(
  db: Db,
  profileId: string,
): { summary: ParseSummary; ancestry: AncestryInference | null } | undefined {
  const row = statements(db).summary.get(profileId);
  return row ? { summary: JSON.parse(row.summary) as ParseSummary, ancestry: parseAncestry(row.ancestry) } : undefined;
}

/** A stored estimate, or null for none or for the PCA estimates of earlier versions (they lack `sufficient`). */
function parseAncestry(json: string | null): AncestryInference | null {
  if (!json) return null;
  const a = JSON.parse(json) as Partial<AncestryInference>;
  // Estimates of the retired PCA model are not trusted: scoring estimates again from the genotype.
  if (typeof a.method === 'string' && a.method.startsWith('PCA')) return null;
  return typeof a.sufficient === 'boolean' ? (a as AncestryInference) : null;
}

/** What a stored (or just parsed) genotype says about the person, for scoring (science/assess-context.ts). */
export function genotypeFacts(stored: Pick<StoredGenotype, 'ancestry' | 'summary'>): GenotypeFacts {
  return {
    ancestry: stored.ancestry,
    inferredSex: stored.summary.inferred_sex,
    fileLimits: fileLimitsOf(stored.summary),
  };
}
