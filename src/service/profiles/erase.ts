/**
 * Deleting profiles so that nothing of them can be recovered from the data folder: the rows
 * (cascading to the file record, the parsed genotype and the assessments), the in-memory
 * copy of the genotype, the stored files, and then the database's own leftovers (WAL frames
 * and free pages, db/erase.ts). The deletion is committed (and acknowledged) first; a crash
 * before the files are gone leaves only unreferenced files, which start-up removes.
 */
import type { Db } from '../db/db.js';
import { eraseDeletedRows } from '../db/erase.js';
import { namedStatements } from '../db/statements.js';
import { removeAllStoredFiles, removeProfileFiles } from '../storage/file-store.js';
import { forgetProfile } from '../traits/profile-traits.js';

const statements = namedStatements((db: Db) => ({
  idsOfClient: db.prepare<[string], { id: string }>('SELECT id FROM profiles WHERE client_id = ?'),
  allIds: db.prepare<[], { id: string }>('SELECT id FROM profiles'),
  removeOne: db.prepare<[string, string]>('DELETE FROM profiles WHERE id = ? AND client_id = ?'),
  removeOfClient: db.prepare<[string]>('DELETE FROM profiles WHERE client_id = ?'),
  removeAll: db.prepare('DELETE FROM profiles'),
}));

/** Deletes one profile of a client; false if the client has no such profile. */
export async function eraseProfile(db: Db, dataDir: string, clientId: string, profileId: string): Promise<boolean> {
  if (statements(db).removeOne.run(profileId, clientId).changes === 0) return false;
  await finish(db, dataDir, [profileId]);
  return true;
}

/** Deletes every profile a client created; returns how many. */
export async function eraseClientProfiles(db: Db, dataDir: string, clientId: string): Promise<number> {
  const st = statements(db);
  const ids = db
    .transaction(() => {
      const found = st.idsOfClient.all(clientId).map((r) => r.id);
      st.removeOfClient.run(clientId);
      return found;
    })
    .immediate();
  await finish(db, dataDir, ids);
  return ids.length;
}

/** Deletes every profile of every client ("delete all my data"); returns how many. */
export async function eraseAllProfiles(db: Db, dataDir: string): Promise<number> {
  const st = statements(db);
  const ids = db
    .transaction(() => {
      const found = st.allIds.all().map((r) => r.id);
      st.removeAll.run();
      return found;
    })
    .immediate();
  ids.forEach(forgetProfile);
  await removeAllStoredFiles(dataDir);
  eraseDeletedRows(db, 'always');
  return ids.length;
}

/** After the rows of some profiles are deleted: what memory holds of them, their files, the database's leftovers. */
async function finish(db: Db, dataDir: string, ids: string[]): Promise<void> {
  ids.forEach(forgetProfile);
  for (const id of ids) await removeProfileFiles(dataDir, id);
  if (ids.length > 0) eraseDeletedRows(db, 'when-fragmented');
}
