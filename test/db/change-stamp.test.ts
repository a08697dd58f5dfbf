/**
 * untilDatabaseChanges, the memory in front of reads that clients poll: an answer is kept
 * only until a commit, by this connection or by another one on the same file (the pool's
 * workers, a CLI process). Real SQLite files, two connections as the service has them.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { untilDatabaseChanges } from '../../src/service/db/change-stamp.js';
import { openDatabase } from '../../src/service/db/database.js';
import type { Db } from '../../src/service/db/db.js';

function twoConnections(): { db: Db; other: Db } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'traitscope-stamp-')), 'db.sqlite');
  const db = openDatabase(file);
  db.exec('CREATE TABLE t (k TEXT, v INTEGER)');
  return { db, other: openDatabase(file) };
}

/** A counting read of t's values under key k. */
function countingRead() {
  const calls: string[] = [];
  const read = untilDatabaseChanges((db: Db, k: string) => {
    calls.push(k);
    const rows = db.prepare<[string], { v: number }>('SELECT v FROM t WHERE k = ? ORDER BY v').all(k);
    return rows.length ? rows.map((r) => r.v) : undefined;
  });
  return { read, calls };
}

describe('untilDatabaseChanges', () => {
  it('answers from memory while nothing is written, and reads again after a write of its own connection', () => {
    const { db } = twoConnections();
    const { read, calls } = countingRead();
    db.prepare("INSERT INTO t VALUES ('a', 1)").run();
    expect(read(db, 'a')).toEqual([1]);
    expect(read(db, 'a')).toEqual([1]);
    expect(calls).toEqual(['a']);
    db.prepare("INSERT INTO t VALUES ('a', 2)").run();
    expect(read(db, 'a')).toEqual([1, 2]);
    expect(calls).toEqual(['a', 'a']);
  });

  it("reads again after another connection's commit, and not after its uncommitted write", () => {
    const { db, other } = twoConnections();
    const { read, calls } = countingRead();
    db.prepare("INSERT INTO t VALUES ('a', 1)").run();
    expect(read(db, 'a')).toEqual([1]);
    other.exec('BEGIN');
    other.prepare("UPDATE t SET v = 5 WHERE k = 'a'").run();
    expect(read(db, 'a')).toEqual([1]);
    expect(calls).toHaveLength(1);
    other.exec('COMMIT');
    expect(read(db, 'a')).toEqual([5]);
    other.prepare("DELETE FROM t WHERE k = 'a'").run();
    expect(read(db, 'a')).toBeUndefined();
    expect(calls).toHaveLength(3);
  });

  it('keeps no undefined answers, so unknown keys cost a read each and hold no memory', () => {
    const { db } = twoConnections();
    const { read, calls } = countingRead();
    for (let i = 0; i < 3; i++) expect(read(db, 'nobody')).toBeUndefined();
    expect(calls).toEqual(['nobody', 'nobody', 'nobody']);
  });

  it('keeps each connection apart', () => {
    const { db, other } = twoConnections();
    const { read, calls } = countingRead();
    db.prepare("INSERT INTO t VALUES ('a', 1)").run();
    expect(read(db, 'a')).toEqual([1]);
    expect(read(other, 'a')).toEqual([1]);
    expect(calls).toHaveLength(2);
  });
});
