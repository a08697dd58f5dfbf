/**
 * Profiles: one person each, owned by the client that created it. Every read and write
 * is scoped by client id, so a client never sees another client's profiles.
 */
import { randomUUID } from 'node:crypto';
import { untilDatabaseChanges } from '../db/change-stamp.js';
import type { Db } from '../db/db.js';
import { namedStatements } from '../db/statements.js';
import type { Profile, ProfileInput, ReferenceMixture } from '../../shared/api.js';

interface ProfileRow extends Omit<Profile, 'reference_mixture'> {
  reference_mixture: string | null;
  client_id: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, email, first_name, last_name, gender, age, ethnicity, reference_mixture';

/**
 * What a profile's results rest on (the fields assess-context.ts scores with), as one text:
 * stored results carry the key they were computed for (`results_reference`), so a reference
 * change that a crash interrupted before its results were rescored is found at start-up.
 */
const REFERENCE_KEY = "(ethnicity || '|' || gender || '|' || ifnull(reference_mixture, ''))";

const profileStatements = namedStatements((db: Db) => ({
  insert: db.prepare<[string, string, string, string, number, number | null, number, string | null, string, string]>(
    `INSERT INTO profiles (id, client_id, first_name, last_name, gender, age, ethnicity, reference_mixture, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  byId: db.prepare<[string, string], ProfileRow>(`SELECT ${COLUMNS} FROM profiles WHERE id = ? AND client_id = ?`),
  list: db.prepare<[string], ProfileRow>(
    `SELECT ${COLUMNS} FROM profiles WHERE client_id = ? ORDER BY created_at, rowid`,
  ),
  update: db.prepare<[string, string, number, number | null, number, string | null, string, string, string]>(
    `UPDATE profiles SET first_name = ?, last_name = ?, gender = ?, age = ?, ethnicity = ?, reference_mixture = ?, updated_at = ?
      WHERE id = ? AND client_id = ?`,
  ),
  owner: db.prepare<
    [string],
    { ethnicity: number; gender: number; reference_mixture: string | null; client_id: string; reference_key: string }
  >(
    `SELECT ethnicity, gender, reference_mixture, client_id, ${REFERENCE_KEY} AS reference_key FROM profiles WHERE id = ?`,
  ),
  setResultsReference: db.prepare<[string, string]>('UPDATE profiles SET results_reference = ? WHERE id = ?'),
  resultsOutdated: db.prepare<[string], { outdated: number }>(
    `SELECT p.results_reference IS NOT ${REFERENCE_KEY}
            AND EXISTS (SELECT 1 FROM assessments a WHERE a.profile_id = p.id) AS outdated
       FROM profiles p WHERE p.id = ?`,
  ),
  outdatedProfiles: db.prepare<[], { id: string }>(
    `SELECT p.id FROM profiles p WHERE p.results_reference IS NOT ${REFERENCE_KEY}
        AND EXISTS (SELECT 1 FROM assessments a WHERE a.profile_id = p.id)`,
  ),
}));

/** The defaults a complete update (PUT) applies to omitted properties. */
export const PROFILE_DEFAULTS = {
  first_name: '',
  last_name: '',
  gender: 0,
  age: null,
  ethnicity: 0,
  reference_mixture: null,
} as const;

const readMixture = (json: string | null): ReferenceMixture | null =>
  json ? (JSON.parse(json) as ReferenceMixture) : null;

/**
 * One reference choice at a time: a mixture given without an ethnicity of 1–5 in the same
 * input sets ethnicity to 0 (the mixture is the choice); an ethnicity of 1–5 clears the mixture.
 */
function settle<T extends { ethnicity: number; reference_mixture: ReferenceMixture | null }>(
  p: T,
  input: ProfileInput,
): T {
  const namesPopulation = input.ethnicity !== undefined && input.ethnicity >= 1;
  if (input.reference_mixture && !namesPopulation) return { ...p, ethnicity: 0 };
  if (p.ethnicity >= 1) return { ...p, reference_mixture: null };
  return p;
}

function toProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    gender: row.gender,
    age: row.age,
    ethnicity: row.ethnicity,
    reference_mixture: readMixture(row.reference_mixture),
  };
}

export function createProfile(db: Db, clientId: string, input: ProfileInput): Profile {
  const id = randomUUID();
  const now = new Date().toISOString();
  const p = settle({ ...PROFILE_DEFAULTS, ...input, reference_mixture: input.reference_mixture ?? null }, input);
  const mixture = p.reference_mixture ? JSON.stringify(p.reference_mixture) : null;
  profileStatements(db).insert.run(
    id,
    clientId,
    p.first_name,
    p.last_name,
    p.gender,
    p.age ?? null,
    p.ethnicity,
    mixture,
    now,
    now,
  );
  return getProfile(db, clientId, id)!;
}

export function getProfile(db: Db, clientId: string, id: string): Profile | undefined {
  const row = profileStatements(db).byId.get(id, clientId);
  return row ? toProfile(row) : undefined;
}

/**
 * The client's profiles as the JSON the API sends. Tools poll this list; it is built again
 * only after the database changed (45 profiles cost ~0.3 ms of the event loop to read).
 */
const profilesJson = untilDatabaseChanges((db: Db, clientId: string): string =>
  JSON.stringify(profileStatements(db).list.all(clientId).map(toProfile)),
);
export const listProfilesJson = (db: Db, clientId: string): string => profilesJson(db, clientId)!;

/** PUT replaces every property (omitted ones take their default); PATCH changes only the given ones. */
export function updateProfile(
  db: Db,
  clientId: string,
  id: string,
  input: ProfileInput,
  mode: 'replace' | 'merge',
): Profile | undefined {
  const current = getProfile(db, clientId, id);
  if (!current) return undefined;
  const base = mode === 'replace' ? PROFILE_DEFAULTS : current;
  const p = settle(
    {
      ...base,
      ...input,
      reference_mixture: input.reference_mixture === undefined ? base.reference_mixture : input.reference_mixture,
    },
    input,
  );
  const mixture = p.reference_mixture ? JSON.stringify(p.reference_mixture) : null;
  profileStatements(db).update.run(
    p.first_name,
    p.last_name,
    p.gender,
    p.age ?? null,
    p.ethnicity,
    mixture,
    new Date().toISOString(),
    id,
    clientId,
  );
  return getProfile(db, clientId, id);
}

/** Owner and the scoring-relevant fields of a profile regardless of client (for background processing). */
export function profileOwner(
  db: Db,
  id: string,
):
  | {
      ethnicity: number;
      gender: number;
      reference_mixture: ReferenceMixture | null;
      clientId: string;
      /** What results scored now rest on (REFERENCE_KEY). */
      referenceKey: string;
    }
  | undefined {
  const row = profileStatements(db).owner.get(id);
  return row
    ? {
        ethnicity: row.ethnicity,
        gender: row.gender,
        reference_mixture: readMixture(row.reference_mixture),
        clientId: row.client_id,
        referenceKey: row.reference_key,
      }
    : undefined;
}

/** Records, in the transaction that writes every result, the reference they were computed for. */
export function setResultsReference(db: Db, id: string, referenceKey: string): void {
  profileStatements(db).setResultsReference.run(referenceKey, id);
}

/**
 * True while the profile's stored results were computed for another reference than the
 * profile's (a change whose rescore has not committed, also one a crash interrupted):
 * they are rescored before they are served, and the API says "updating" meanwhile.
 */
export const resultsOutdated = (db: Db, id: string): boolean =>
  profileStatements(db).resultsOutdated.get(id)?.outdated === 1;

/** Every profile whose stored results rest on another reference than its own (rescored at start). */
export const profilesWithOutdatedResults = (db: Db): string[] =>
  profileStatements(db)
    .outdatedProfiles.all()
    .map((r) => r.id);
