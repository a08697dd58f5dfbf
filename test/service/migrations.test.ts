/** Numbered migrations on a real SQLite file: each in one transaction, data carried forward, newer schemas refused. */
import { statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatabaseTooNewError, migrate, openDatabase } from '../../src/service/db/database.js';
import { VACUUM_PENDING } from '../../src/service/db/erase.js';
import { LATEST_VERSION, MIGRATIONS } from '../../src/service/db/migrations.js';
import { getSetting } from '../../src/service/settings.js';
import { tempDir } from '../support/server.js';

function atVersion(version: number): Database.Database {
  const db = new Database(path.join(tempDir(), 'traitscope.db'));
  db.pragma('foreign_keys = ON');
  for (const m of MIGRATIONS.filter((m) => m.version <= version)) db.exec(m.sql);
  db.pragma(`user_version = ${version}`);
  return db;
}

describe('migrations', () => {
  it('are numbered 1, 2, 3, … without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_m, i) => i + 1));
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('bring a new database to the latest version', () => {
    const db = openDatabase(path.join(tempDir(), 'traitscope.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    db.close();
  });

  it('skip the one-time VACUUM on a new database (it holds no deleted data) and run it on an older one', () => {
    const freshFile = path.join(tempDir(), 'traitscope.db');
    const fresh = openDatabase(freshFile);
    expect(getSetting(fresh, VACUUM_PENDING)).toBeUndefined();
    // The VACUUM ends with a checkpoint that empties the WAL: the migrations' pages still there show none ran.
    expect(statSync(`${freshFile}-wal`).size).toBeGreaterThan(0);
    fresh.close();
    const file = path.join(tempDir(), 'traitscope.db');
    const old = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= 5)) old.exec(m.sql);
    old.pragma('user_version = 5');
    old.close();
    // Migration 6 asks for the VACUUM; opening the file carries it out and clears the request.
    const db = openDatabase(file);
    expect(getSetting(db, VACUUM_PENDING)).toBeUndefined();
    expect(migrate(db)).toBe(LATEST_VERSION);
    db.close();
  });

  it('3 splits stored assessments into summary and details', () => {
    const db = atVersion(2);
    db.prepare(
      "INSERT INTO clients (id, name, secret_hash, scopes, free_traits, created_at) VALUES ('c', 'c', 'x', 'read:profiles', '\"default\"', 'now')",
    ).run();
    db.prepare("INSERT INTO profiles (id, client_id, created_at, updated_at) VALUES ('p', 'c', 'now', 'now')").run();
    const old = {
      assessment_level: 3,
      percentile: 50,
      snps: ['rs1'],
      markers: [{ rsid: 'rs1', weight: 0.1 }],
      distribution: { mean: 0, sd: 1 },
    };
    db.prepare(
      "INSERT INTO assessments (profile_id, trait_code, revision, result, computed_at) VALUES ('p', 't', 'r', ?, 'now')",
    ).run(JSON.stringify(old));
    db.exec(MIGRATIONS[2].sql); // migration 3 alone: a later one drops the details again
    const row = db.prepare("SELECT result, details FROM assessments WHERE trait_code = 't'").get() as {
      result: string;
      details: string;
    };
    expect(JSON.parse(row.result)).toEqual({ assessment_level: 3, percentile: 50, snps: ['rs1'] });
    expect(JSON.parse(row.details)).toEqual({ markers: old.markers, distribution: old.distribution });
    db.close();
  });

  it('5 keeps what was computed visible to its client (as requested) and stops storing details', () => {
    const db = atVersion(4);
    db.prepare(
      "INSERT INTO clients (id, name, secret_hash, scopes, free_traits, created_at) VALUES ('c', 'c', 'x', 'read:profiles', '\"none\"', 'now')",
    ).run();
    db.prepare("INSERT INTO profiles (id, client_id, created_at, updated_at) VALUES ('p', 'c', 'now', 'now')").run();
    db.prepare(
      "INSERT INTO assessments (profile_id, trait_code, revision, result, details, computed_at) VALUES ('p', 't', 'r', '{\"percentile\":50}', '{}', '2024-01-01')",
    ).run();
    migrate(db);
    expect(db.prepare('SELECT profile_id, trait_code, requested_at FROM requested_traits').all()).toEqual([
      { profile_id: 'p', trait_code: 't', requested_at: '2024-01-01' },
    ]);
    expect(db.prepare('SELECT * FROM assessments').all()).toEqual([
      { profile_id: 'p', trait_code: 't', revision: 'r', result: '{"percentile":50}', computed_at: '2024-01-01' },
    ]);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    db.close();
  });

  it("8 puts a genotype's small columns before its marker arrays and keeps every value", () => {
    // Found by its description: its number may change when branches are merged.
    const reorder = MIGRATIONS.find((m) => m.description.startsWith("a genotype's small columns"))!;
    const db = atVersion(reorder.version - 1);
    db.prepare(
      "INSERT INTO clients (id, name, secret_hash, scopes, free_traits, created_at) VALUES ('c', 'c', 'x', 'read:profiles', '\"none\"', 'now')",
    ).run();
    db.prepare("INSERT INTO profiles (id, client_id, created_at, updated_at) VALUES ('p', 'c', 'now', 'now')").run();
    const stored = {
      profile_id: 'p',
      parsed_at: '2024-01-01T00:00:00.000Z',
      source_md5: 'bWQ1',
      source_file: 'p-1.txt',
      summary: '{"snp_count":3}',
      ancestry: null,
      rsids: Buffer.from([1, 2, 3, 4]),
      calls: Buffer.alloc(20_000, 7), // spills over overflow pages, as real arrays do
      chroms: Buffer.from([1]),
      positions: Buffer.from([9, 9, 9, 9]),
    };
    db.prepare(
      'INSERT INTO genotypes (profile_id, rsids, calls, chroms, positions, summary, ancestry, source_md5, parsed_at, source_file) VALUES (@profile_id, @rsids, @calls, @chroms, @positions, @summary, @ancestry, @source_md5, @parsed_at, @source_file)',
    ).run(stored);
    migrate(db);
    const columns = (db.pragma('table_info(genotypes)') as Array<{ name: string }>).map((c) => c.name);
    expect(columns.indexOf('rsids')).toBeGreaterThan(columns.indexOf('parsed_at'));
    expect(columns.slice(-4)).toEqual(['rsids', 'calls', 'chroms', 'positions']);
    expect(db.prepare('SELECT * FROM genotypes').all()).toEqual([stored]);
    // Still the profile's: deleting the profile deletes its genotype.
    db.prepare("DELETE FROM profiles WHERE id = 'p'").run();
    expect(db.prepare('SELECT count(*) AS n FROM genotypes').get()).toEqual({ n: 0 });
    db.close();
  });

  it('a failing migration leaves the database at its previous version', () => {
    const db = atVersion(2);
    db.exec('CREATE TABLE probe (x)');
    db.exec('ALTER TABLE assessments ADD COLUMN details TEXT'); // makes migration 3 fail
    expect(() => migrate(db)).toThrow(/duplicate column/);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('refuse a database newer than this version', () => {
    const db = atVersion(LATEST_VERSION);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(DatabaseTooNewError);
  });
});
