/**
 * Numbered schema migrations. Each runs in its own transaction together with the bump of
 * `PRAGMA user_version`, so a database is always at exactly one numbered version.
 * Append only: never edit a migration that has shipped. `npm run db:snapshot` records a new
 * one (checksum and resulting schema, beside this file); test/db/migration-snapshot.test.ts
 * fails when a recorded migration changes. CODING_STANDARDS.md has the steps.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'clients, tokens, profiles, genotype files, parsed genotypes, assessments',
    sql: `
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE clients (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        scopes      TEXT NOT NULL,             -- space-separated
        free_traits TEXT NOT NULL,             -- JSON: "default" | "all" | "none" | ["code", ...]
        trait_codes TEXT,                      -- JSON array of configured codes; NULL = whole catalog
        is_app      INTEGER NOT NULL DEFAULT 0, -- the desktop UI's own client
        created_at  TEXT NOT NULL,
        revoked_at  TEXT
      ) STRICT;

      CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,           -- SHA-256 of the bearer token; the token itself is never stored
        client_id  TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        scopes     TEXT NOT NULL,
        expires_at INTEGER NOT NULL            -- epoch milliseconds
      ) STRICT;
      CREATE INDEX tokens_by_client ON tokens(client_id);

      CREATE TABLE profiles (
        id         TEXT PRIMARY KEY,
        client_id  TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        email      TEXT NOT NULL DEFAULT '',
        first_name TEXT NOT NULL DEFAULT '',
        last_name  TEXT NOT NULL DEFAULT '',
        gender     INTEGER NOT NULL DEFAULT 0,
        age        INTEGER,
        ethnicity  INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX profiles_by_client ON profiles(client_id, created_at);

      -- The latest uploaded file of a profile and the state of its processing.
      CREATE TABLE genotype_files (
        profile_id   TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
        file_name    TEXT NOT NULL,            -- under <dataDir>/genotypes/; unique per upload
        content_type TEXT NOT NULL,
        size         INTEGER NOT NULL,
        md5_hash     TEXT NOT NULL,
        crc32c       TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('uploaded', 'processing', 'processed', 'failed')),
        error        TEXT
      ) STRICT;

      -- The genotype in use: the last file that parsed successfully, in columnar form.
      CREATE TABLE genotypes (
        profile_id TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
        rsids      BLOB NOT NULL,
        calls      BLOB NOT NULL,
        chroms     BLOB NOT NULL,
        positions  BLOB NOT NULL,
        summary    TEXT NOT NULL,              -- JSON ParseSummary
        ancestry   TEXT,                       -- JSON AncestryEstimate, or NULL
        source_md5 TEXT NOT NULL,
        parsed_at  TEXT NOT NULL
      ) STRICT;

      CREATE TABLE assessments (
        profile_id  TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        trait_code  TEXT NOT NULL,
        revision    TEXT NOT NULL,             -- trait revision the result was computed with
        result      TEXT NOT NULL,             -- JSON Assessment
        computed_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, trait_code)
      ) STRICT;
    `,
  },
  {
    version: 2,
    description: 'custom traits imported from PGS Catalog scoring files',
    sql: `
      CREATE TABLE custom_traits (
        code        TEXT PRIMARY KEY,
        definition  TEXT NOT NULL,             -- JSON, the catalog's own trait format
        report      TEXT NOT NULL,             -- JSON import report (matching, frequencies, dropped rows)
        file_name   TEXT NOT NULL,
        imported_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    description: 'keep per-marker details and plot data of assessments apart from their summary',
    // Trait lists read thousands of summaries at once; the details are read one trait at a time.
    sql: `
      ALTER TABLE assessments ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
      UPDATE assessments SET
        details = json_object('markers', json(json_extract(result, '$.markers')), 'distribution', json(json_extract(result, '$.distribution'))),
        result  = json_remove(result, '$.markers', '$.distribution')
      WHERE json_type(result, '$.markers') IS NOT NULL;
    `,
  },
  {
    version: 4,
    description: 'one-time sign-in links for the web UI',
    sql: `
      CREATE TABLE sign_in_codes (
        code_hash  TEXT PRIMARY KEY,           -- SHA-256 of the code in the link; the code itself is never stored
        expires_at INTEGER NOT NULL            -- epoch milliseconds
      ) STRICT;
    `,
  },
  {
    version: 5,
    description:
      'every trait scored in the background: unavailable outcomes, requested traits, a results version per profile',
    sql: `
      -- Traits that cannot be computed on the profile's genotype, with the reason.
      CREATE TABLE unavailable_traits (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        trait_code TEXT NOT NULL,
        revision   TEXT NOT NULL,              -- trait revision the outcome was decided with
        reason     TEXT NOT NULL,              -- JSON {code, detail}
        PRIMARY KEY (profile_id, trait_code)
      ) STRICT;

      -- Non-free traits the profile's client asked for (POST/PUT): only these, and its free
      -- traits, are "computed" for that client, whatever the background has scored.
      CREATE TABLE requested_traits (
        profile_id   TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        trait_code   TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, trait_code)
      ) STRICT;
      -- Everything computed so far was computed because it was free or asked for.
      INSERT INTO requested_traits (profile_id, trait_code, requested_at)
        SELECT profile_id, trait_code, computed_at FROM assessments;

      -- Changes whenever a profile's stored results change: the ETag of its trait list.
      CREATE TABLE results_versions (
        profile_id TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
        version    INTEGER NOT NULL
      ) STRICT;

      -- Per-marker details are recomputed when one assessment is read rather than stored
      -- for thousands of traits (about 8 kB each); the trait's quality facts and the
      -- revision live elsewhere, so the stored summary is what lists show.
      ALTER TABLE assessments DROP COLUMN details;
      UPDATE assessments SET result = json_remove(result, '$.revision', '$.quality');
    `,
  },
  {
    version: 6,
    description:
      'keep the source file of the genotype in use; confirmations of unlikely replacements; no stored upload-URL key',
    sql: `
      -- The uploaded file the genotype in use was parsed from: kept until another file has parsed.
      ALTER TABLE genotypes ADD COLUMN source_file TEXT;
      UPDATE genotypes SET source_file =
        (SELECT f.file_name FROM genotype_files f WHERE f.profile_id = genotypes.profile_id AND f.status = 'processed');
      -- A file much smaller or stranger than the genotype in use waits for a confirmation
      -- (genotype/plausibility.ts); replace_confirmed is that confirmation.
      ALTER TABLE genotype_files ADD COLUMN needs_confirmation INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE genotype_files ADD COLUMN replace_confirmed INTEGER NOT NULL DEFAULT 0;
      -- Upload URLs are now signed with a key that lives in memory only.
      DELETE FROM settings WHERE key = 'upload_url_key';
      -- Free pages written before secure_delete was on may hold deleted data: vacuum once (db/erase.ts).
      INSERT OR REPLACE INTO settings (key, value) VALUES ('vacuum_pending', '1');
    `,
  },
  {
    version: 7,
    description: 'a reference population mixed from several super-populations, chosen per profile',
    sql: `
      -- JSON {"EUR": …, "AMR": …, "AFR": …, "EAS": …, "SAS": …} adding up to 1, or NULL.
      ALTER TABLE profiles ADD COLUMN reference_mixture TEXT;
    `,
  },
  {
    version: 8,
    description: "a genotype's small columns before its marker arrays",
    sql: `
      -- SQLite stores a row's columns in order, and ~10 MB of marker arrays spill over a chain
      -- of ~2,500 overflow pages: a column after them is reached by walking that chain. Every
      -- trait list and genotype read asks for parsed_at or summary, and after any write by
      -- another connection (the workers') the page cache is gone, so each such read cost
      -- 40-100 ms of the service's event loop. Small columns first, the arrays last.
      CREATE TABLE genotypes_reordered (
        profile_id  TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
        parsed_at   TEXT NOT NULL,
        source_md5  TEXT NOT NULL,
        source_file TEXT,
        summary     TEXT NOT NULL,             -- JSON ParseSummary
        ancestry    TEXT,                      -- JSON AncestryEstimate, or NULL
        rsids       BLOB NOT NULL,
        calls       BLOB NOT NULL,
        chroms      BLOB NOT NULL,
        positions   BLOB NOT NULL
      ) STRICT;
      INSERT INTO genotypes_reordered (profile_id, parsed_at, source_md5, source_file, summary, ancestry, rsids, calls, chroms, positions)
        SELECT profile_id, parsed_at, source_md5, source_file, summary, ancestry, rsids, calls, chroms, positions FROM genotypes;
      DROP TABLE genotypes;
      ALTER TABLE genotypes_reordered RENAME TO genotypes;
    `,
  },
  {
    version: 9,
    description: "the person's answer on how to read a VCF's unlisted sites",
    sql: `
      -- NULL: read as the file's contents say (genotype/parse/sites.ts); 1: the file lists
      -- variants only, so unlisted markers are REF/REF; 0: it lists every site it called.
      ALTER TABLE genotype_files ADD COLUMN variants_only INTEGER;
    `,
  },
  {
    version: 10,
    description: 'the reference (ethnicity, sex, mixture) stored results were computed for',
    sql: `
      -- profiles/profiles.ts REFERENCE_KEY of the profile when its results were written, in
      -- the same transaction. A change of reference commits before its rescore; if the rescore
      -- never commits (a crash), start-up finds the two differ and rescores. Unknown for
      -- results written before this version: they are rescored once.
      ALTER TABLE profiles ADD COLUMN results_reference TEXT;
    `,
  },
  {
    version: 11,
    description: 'the sample of a VCF of several people the person chose',
    sql: `
      -- NULL: the file's first sample (genotype/parse/detect.ts); else the name of the sample
      -- column to read. A new upload clears it, as it clears variants_only.
      ALTER TABLE genotype_files ADD COLUMN vcf_sample TEXT;
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
