/**
 * writeWhenFree, the event loop's way to write: it commits without an fsync on the loop
 * (synchronous=NORMAL for its own commit only: the connection is FULL again before anything
 * else runs), flushes the write-ahead log on the thread pool before it resolves, and waits
 * for another connection's write lock on a timer. A real SQLite file, as the service opens it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db/database.js';
import { writeWhenFree } from '../../src/service/db/write-when-free.js';

const FULL = 2;
const NORMAL = 1;

function database() {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'traitscope-when-free-')), 'db.sqlite');
  const db = openDatabase(file);
  db.exec('CREATE TABLE t (x INTEGER)');
  return { db, file };
}
const synchronous = (db: ReturnType<typeof database>['db']) => db.pragma('synchronous', { simple: true });
const count = (db: ReturnType<typeof database>['db']) => db.prepare('SELECT count(*) AS n FROM t').get();

describe('writeWhenFree', () => {
  it('commits at NORMAL, is FULL again before its log is flushed, and resolves to the write result', async () => {
    const { db } = database();
    let during: unknown;
    const pending = writeWhenFree(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run();
      during = synchronous(db);
      return 'written';
    });
    // What else runs on the loop while the log is flushed commits at FULL.
    expect(synchronous(db)).toBe(FULL);
    expect(during).toBe(NORMAL);
    expect(await pending).toBe('written');
    expect(count(db)).toEqual({ n: 1 });
  });

  it('rolls a throwing write back and stays FULL', async () => {
    const { db } = database();
    await expect(
      writeWhenFree(db, () => {
        db.prepare('INSERT INTO t VALUES (1)').run();
        throw new Error('changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    expect(synchronous(db)).toBe(FULL);
    expect(count(db)).toEqual({ n: 0 });
  });

  it("waits for another connection's write lock on a timer, then commits", async () => {
    const { db, file } = database();
    const other = openDatabase(file);
    other.prepare('BEGIN IMMEDIATE').run();
    let committed = false;
    const pending = writeWhenFree(db, () => db.prepare('INSERT INTO t VALUES (2)').run()).then(
      () => (committed = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(committed).toBe(false);
    other.prepare('COMMIT').run();
    await pending;
    expect(count(other)).toEqual({ n: 1 });
    other.close();
  });
});
