/**
 * Shipped migrations stay as they shipped, and the committed schema is what they build:
 * checked against scripts/db/snapshot.ts's record (src/service/db/migration-checksums.json
 * and schema.sql), on a real SQLite file migrated by the service's own openDatabase.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/service/db/migrations.js';
import { SCHEMA_FILE, currentSchema, migrationChecksum, readChecksums } from '../../scripts/db/snapshot.js';

describe('the recorded migrations', () => {
  const recorded = readChecksums();

  it('each still has the SQL it was recorded with', () => {
    const edited = MIGRATIONS.filter(
      (m) => recorded[m.version] !== undefined && recorded[m.version] !== migrationChecksum(m),
    );
    expect(
      edited.map((m) => m.version),
      'a shipped migration was edited: undo that and append a new migration (CODING_STANDARDS.md, "Database migrations")',
    ).toEqual([]);
  });

  it('are all still there, and every migration is recorded', () => {
    expect(
      Object.keys(recorded).map(Number),
      'run npm run db:snapshot after adding a migration, and commit what it writes',
    ).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('build the committed schema', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8').replace(/^--.*\n\n/, '');
    expect(currentSchema(), 'run npm run db:snapshot and commit src/service/db/schema.sql').toBe(committed);
  });
});
