/** `sign-in-link`: a new one-time link into the web UI of the service running on a data folder. */
import { existsSync } from 'node:fs';
import { createSignInCode } from '../service/auth/sign-in.js';
import { databasePath, defaultDataDir } from '../service/config.js';
import { openDatabase } from '../service/db/database.js';
import { getSetting, SERVICE_ORIGIN } from '../service/settings.js';
import { parse } from './args.js';

const USAGE = 'traitscope sign-in-link [--data-dir DIR]';

export async function signInLinkCommand(args: string[]): Promise<number> {
  const { values } = parse(args, { 'data-dir': { type: 'string' } }, USAGE);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (!existsSync(databasePath(dataDir))) {
    console.error(`There is no Traitscope data in ${dataDir}. Start it with: npm run serve -- --data-dir ${dataDir}`);
    return 1;
  }
  const db = openDatabase(databasePath(dataDir));
  try {
    const origin = getSetting(db, SERVICE_ORIGIN);
    if (!origin) {
      console.error(`Traitscope is not running on ${dataDir}. Start it with: npm run serve -- --data-dir ${dataDir}`);
      return 1;
    }
    console.log(`${origin}/#signin=${createSignInCode(db)}`);
    return 0;
  } finally {
    db.close();
  }
}
