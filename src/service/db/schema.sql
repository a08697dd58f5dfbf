-- Written by npm run db:snapshot: the schema of a new database. Do not edit.

CREATE TABLE assessments (
        profile_id  TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        trait_code  TEXT NOT NULL,
        revision    TEXT NOT NULL,             -- trait revision the result was computed with
        result      TEXT NOT NULL,             -- JSON Assessment
        computed_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, trait_code)
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

CREATE TABLE custom_traits (
        code        TEXT PRIMARY KEY,
        definition  TEXT NOT NULL,             -- JSON, the catalog's own trait format
        report      TEXT NOT NULL,             -- JSON import report (matching, frequencies, dropped rows)
        file_name   TEXT NOT NULL,
        imported_at TEXT NOT NULL
      ) STRICT;

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
      , needs_confirmation INTEGER NOT NULL DEFAULT 0, replace_confirmed INTEGER NOT NULL DEFAULT 0, variants_only INTEGER, vcf_sample TEXT) STRICT;

CREATE TABLE "genotypes" (
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
      , reference_mixture TEXT, results_reference TEXT) STRICT;

CREATE TABLE requested_traits (
        profile_id   TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        trait_code   TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, trait_code)
      ) STRICT;

CREATE TABLE results_versions (
        profile_id TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
        version    INTEGER NOT NULL
      ) STRICT;

CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

CREATE TABLE sign_in_codes (
        code_hash  TEXT PRIMARY KEY,           -- SHA-256 of the code in the link; the code itself is never stored
        expires_at INTEGER NOT NULL            -- epoch milliseconds
      ) STRICT;

CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,           -- SHA-256 of the bearer token; the token itself is never stored
        client_id  TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        scopes     TEXT NOT NULL,
        expires_at INTEGER NOT NULL            -- epoch milliseconds
      ) STRICT;

CREATE TABLE unavailable_traits (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        trait_code TEXT NOT NULL,
        revision   TEXT NOT NULL,              -- trait revision the outcome was decided with
        reason     TEXT NOT NULL,              -- JSON {code, detail}
        PRIMARY KEY (profile_id, trait_code)
      ) STRICT;

CREATE INDEX profiles_by_client ON profiles(client_id, created_at);

CREATE INDEX tokens_by_client ON tokens(client_id);
