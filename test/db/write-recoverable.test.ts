/**
 * writeRecoverable commits without waiting for the disk, for that one transaction only: the
 * connection is back at synchronous=FULL afterwards, whether the write committed, returned
 * early or threw (and a throw rolls the write back). A real SQLite file, as the service opens it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db/database.js';
import { writeRecoverable } from '../../src/service/db/write-recoverable.js';

const FULL = 2;
const NORMAL = 1;

function database() {
  const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'traitscope-recoverable-')), 'db.sqlite'));
  db.exec('CREATE TABLE t (x INTEGER)');
  return db;
}
const synchronous = (db: ReturnType<typeof database>) => db.pragma('synchronous', { simple: true });

describe('writeRecoverable', () => {
  it('commits at synchronous=NORMAL, then the connection is FULL again', () => {
    const db = database();
    expect(synchronous(db)).toBe(FULL);
    const during = writeRecoverable(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run();
      return synchronous(db);
    });
    expect(during).toBe(NORMAL);
    expect(synchronous(db)).toBe(FULL);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
  });

  it('a write that throws is rolled back and leaves the connection FULL', () => {
    const db = database();
    expect(() =>
      writeRecoverable(db, () => {
        db.prepare('INSERT INTO t VALUES (1)').run();
        throw new Error('changed its mind');
      }),
    ).toThrow('changed its mind');
    expect(synchronous(db)).toBe(FULL);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  });
});
