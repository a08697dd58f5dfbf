/** The SQLite connection every store takes; db/database.ts opens it. Its own module so stores need not import the opener. */
import type Database from 'better-sqlite3';

export type Db = Database.Database;
