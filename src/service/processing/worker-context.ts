/**
 * What a task running in an engine worker has at hand: the worker's own database
 * connection, the science engine (loaded once per worker, rebuilt only when imported
 * traits change), the data folder, the genotypes it read last, and a way to report progress.
 */
import type { Db } from '../db/db.js';
import { genotypeVersion, loadGenotype, type StoredGenotype } from '../genotype/genotype-store.js';
import type { ScienceEngineExt } from '../science/index.js';

/** Where a job is; sent to the service as it goes and pushed to clients as job events. */
export interface JobProgress {
  stage: 'parsing' | 'scoring' | 'storing';
  /** Traits scored so far and in all, while scoring. */
  done?: number;
  total?: number;
}

export interface WorkerContext {
  db: Db;
  engine: () => ScienceEngineExt;
  dataDir: string;
  resourcesDir: string;
  genotypes: GenotypeMemo;
  progress: (progress: JobProgress) => void;
}

/**
 * The genotypes a worker parsed or loaded last, so the background scoring that follows
 * processing does not read the genotype it just wrote back from the database.
 */
export interface GenotypeMemo {
  remember: (profileId: string, stored: StoredGenotype) => void;
  /** The profile's genotype in use: from memory when it is still the stored version. */
  current: (db: Db, profileId: string) => StoredGenotype | undefined;
}

export function genotypeMemo(capacity = 2): GenotypeMemo {
  const kept = new Map<string, StoredGenotype>();
  const remember = (profileId: string, stored: StoredGenotype) => {
    kept.delete(profileId);
    kept.set(profileId, stored);
    while (kept.size > capacity) kept.delete(kept.keys().next().value!);
  };
  return {
    remember,
    current(db, profileId) {
      const version = genotypeVersion(db, profileId);
      if (!version) return undefined;
      const memo = kept.get(profileId);
      if (memo?.parsedAt === version) return memo;
      const loaded = loadGenotype(db, profileId);
      if (loaded) remember(profileId, loaded);
      return loaded;
    },
  };
}
