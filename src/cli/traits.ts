/** `traits import|list|remove`: custom traits from PGS Catalog scoring files. Works while the service runs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { databasePath, defaultDataDir, resolveConfig } from '../service/config.js';
import { openDatabase } from '../service/db/database.js';
import {
  CustomTraitError,
  engineWithCustomTraits,
  importCustomTrait,
  listCustomTraits,
  removeCustomTrait,
} from '../service/traits/custom-traits.js';
import { parse, UsageError } from './args.js';

const USAGE = `traitscope traits import FILE [--name NAME] [--code CODE] [--profile PROFILE_ID] [--data-dir DIR]
         (PGS Catalog scoring file, plain or .gz; --profile also matches its positions against that profile's genotype file)
       traitscope traits list [--data-dir DIR]
       traitscope traits remove CODE [--data-dir DIR]`;

export async function traitsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    { 'data-dir': { type: 'string' }, name: { type: 'string' }, code: { type: 'string' }, profile: { type: 'string' } },
    USAGE,
  );
  const [action, target] = positionals;
  const db = openDatabase(databasePath(values['data-dir'] ?? defaultDataDir()));
  const { resourcesDir } = resolveConfig();
  try {
    switch (action) {
      case 'import': {
        if (!target) throw new UsageError(`Which file? ${USAGE}`);
        let bytes: Buffer;
        try {
          bytes = readFileSync(target);
        } catch (err) {
          console.error(
            `Cannot read ${target}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`,
          );
          return 1;
        }
        // The engine is loaded only to check the built-in codes, once the file's code is known.
        const engine = engineWithCustomTraits(db, resourcesDir, 'on-first-use');
        const record = await importCustomTrait(db, engine, resourcesDir, bytes, {
          fileName: path.basename(target),
          name: values.name,
          code: values.code,
          profileId: values.profile,
          dataDir: values['data-dir'] ?? defaultDataDir(),
        });
        const r = record.report;
        console.log(
          `Imported "${record.trait.name}" as trait ${record.trait.code}: ${r.usable} of ${r.variants} variants usable.`,
        );
        for (const [reason, n] of Object.entries(r.dropped)) console.log(`  left out ${n}: ${reason}`);
        for (const note of r.notes) console.log(`  note: ${note}`);
        return 0;
      }
      case 'list':
        for (const r of listCustomTraits(db))
          console.log(
            `${r.trait.code}\t${r.trait.name}\t${r.trait.markers.rsid.length} markers\t${r.fileName}\t${r.importedAt}`,
          );
        return 0;
      case 'remove':
        if (!target) throw new UsageError(`Which trait? ${USAGE}`);
        removeCustomTrait(db, target);
        console.log(`Removed ${target} and its assessments.`);
        return 0;
      default:
        throw new UsageError(`Unknown traits action "${action ?? ''}".\n\nUsage: ${USAGE}`);
    }
  } catch (err) {
    if (err instanceof CustomTraitError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    db.close();
  }
}
