import type { Db } from './db.js';

/**
 * Wraps a factory of named prepared statements so each database connection prepares
 * them once: `const st = profileStatements(db); st.byId.get(id)`.
 */
export function namedStatements<T>(factory: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let statements = cache.get(db);
    if (!statements) {
      statements = factory(db);
      cache.set(db, statements);
    }
    return statements;
  };
}
