/**
 * Deleting profiles so that nothing of them can be recovered from the data folder: the rows
 * (cascading to the file record, the parsed genotype and the assessments), the in-memory
 * copy of the genotype, the stored files, and then the database's own leftovers (WAL frames
 * and free pages, db/erase.ts). The deletion is committed (and acknowledged) first, with the
 * erase it owes; a crash before the files are gone leaves only unreferenced files, which
 * start-up removes, and an erase not finished is finished at start-up. The erase itself runs
 * on the erase thread (db/eraser.ts), never on the event loop.
 */
import type { Db } from '../db/db.js';
import { oweErase } from '../db/erase.js';
import type { EraseOutcome, Eraser } from '../db/eraser.js';
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

/**
 * What a deletion did: `erased` false when another program held the database (or the erase
 * failed), so deleted data is still in its files until then; `unfinished` says so in words.
 */
export interface Erasure extends EraseOutcome {
  count: number;
}

/** Deletes one profile of a client; count 0 if the client has no such profile. */
export async function eraseProfile(
  db: Db,
  eraser: Eraser,
  dataDir: string,
  clientId: string,
  profileId: string,
): Promise<Erasure> {
  const removed = db
    .transaction(() => {
      if (statements(db).removeOne.run(profileId, clientId).changes === 0) return false;
      oweErase(db, 'when-fragmented');
      return true;
    })
    .immediate();
  if (!removed) return { count: 0, erased: true };
  return { count: 1, ...(await finish(eraser, dataDir, [profileId])) };
}

/** Deletes every profile a client created. */
export async function eraseClientProfiles(db: Db, eraser: Eraser, dataDir: string, clientId: string): Promise<Erasure> {
  const st = statements(db);
  const ids = db
    .transaction(() => {
      const found = st.idsOfClient.all(clientId).map((r) => r.id);
      st.removeOfClient.run(clientId);
      if (found.length > 0) oweErase(db, 'when-fragmented');
      return found;
    })
    .immediate();
  return { count: ids.length, ...(await finish(eraser, dataDir, ids)) };
}

/** Deletes every profile of every client ("delete all my data"). */
export async function eraseAllProfiles(db: Db, eraser: Eraser, dataDir: string): Promise<Erasure> {
  const st = statements(db);
  const ids = db
    .transaction(() => {
      const found = st.allIds.all().map((r) => r.id);
      st.removeAll.run();
      oweErase(db, 'always');
      return found;
    })
    .immediate();
  ids.forEach(forgetProfile);
  await removeAllStoredFiles(dataDir);
  return { count: ids.length, ...(await eraser.erase()) };
}

/** After the rows of some profiles are deleted: what memory holds of them, their files, the database's leftovers. */
async function finish(eraser: Eraser, dataDir: string, ids: string[]): Promise<EraseOutcome> {
  ids.forEach(forgetProfile);
  for (const id of ids) await removeProfileFiles(dataDir, id);
  return ids.length === 0 ? { erased: true } : eraser.erase();
}
