/**
 * Records the schema after a new migration: appends its checksum to
 * src/service/db/migration-checksums.json and rewrites src/service/db/schema.sql.
 *
 *   npm run db:snapshot                      after appending a migration to db/migrations.ts
 *   npm run db:snapshot -- --rehash-from N   migration N and later changed before they ever
 *                                            reached main (renumbered at a merge, fixed in review)
 *
 * It refuses to re-record a migration whose SQL changed: a shipped migration is never
 * edited, because databases out there already ran it. Add a new migration instead.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MIGRATIONS } from '../src/service/db/migrations.js';
import { CHECKSUMS_FILE, SCHEMA_FILE, currentSchema, migrationChecksum, readChecksums } from './db/snapshot.js';

const { values } = parseArgs({ options: { 'rehash-from': { type: 'string' } } });
const rehashFrom = values['rehash-from'] === undefined ? Infinity : Number(values['rehash-from']);
if (Number.isNaN(rehashFrom)) {
  console.error(`--rehash-from takes a migration number (got "${values['rehash-from']}").`);
  process.exit(2);
}

const recorded = readChecksums();
const next: Record<string, string> = {};
const edited: number[] = [];
for (const migration of MIGRATIONS) {
  const sum = migrationChecksum(migration);
  const before = recorded[migration.version];
  if (before !== undefined && before !== sum && migration.version < rehashFrom) edited.push(migration.version);
  next[migration.version] = sum;
}
if (edited.length > 0) {
  console.error(
    `Migration ${edited.join(', ')} changed after it was recorded. Shipped migrations are never edited: ` +
      'undo the change and append a new migration that makes it. If the migration never left your branch, ' +
      `run npm run db:snapshot -- --rehash-from ${edited[0]}.`,
  );
  process.exit(1);
}
const removed = Object.keys(recorded).filter((v) => !(v in next));
if (removed.length > 0 && Math.min(...removed.map(Number)) < rehashFrom) {
  console.error(
    `Migration ${removed.join(', ')} was recorded but is gone from db/migrations.ts; shipped migrations are never removed.`,
  );
  process.exit(1);
}

writeFileSync(CHECKSUMS_FILE, `${JSON.stringify(next, null, 2)}\n`);
writeFileSync(
  SCHEMA_FILE,
  `-- Written by npm run db:snapshot: the schema of a new database. Do not edit.\n\n${currentSchema()}`,
);
console.log(`Recorded ${MIGRATIONS.length} migrations in ${CHECKSUMS_FILE} and the schema in ${SCHEMA_FILE}.`);
