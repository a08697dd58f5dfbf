/** `clients create|list|revoke`: credentials for third-party tools. Works while the service runs. */
import {
  clientJson,
  parseScopes,
  createClient,
  listClients,
  revokeClient,
  ClientInputError,
  type FreeTraits,
} from '../service/auth/clients.js';
import { databasePath, defaultDataDir, resolveConfig } from '../service/config.js';
import { openDatabase } from '../service/db/database.js';
import { mkdirSync } from 'node:fs';
import { parse, UsageError } from './args.js';

const USAGE = `traitscope clients create --name NAME [--scopes read:profiles,write:profiles] [--free-traits default|all|none|CODE,...] [--data-dir DIR]
       traitscope clients list [--data-dir DIR]
       traitscope clients revoke CLIENT_ID [--data-dir DIR]`;

/** The free traits asked for; the catalog is loaded only to check a list of codes. */
async function parseFreeTraits(value: string | undefined, resourcesDir: string): Promise<FreeTraits> {
  if (value === undefined || value === 'default') return 'default';
  if (value === 'all' || value === 'none') return value;
  const codes = value
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const { createScienceEngine } = await import('../service/science/index.js');
  const engine = createScienceEngine({ resourcesDir, ancestryPanel: 'on-first-use' });
  const unknown = codes.filter((c) => !engine.trait(c));
  if (unknown.length > 0)
    throw new UsageError(
      `Unknown trait code(s) in --free-traits: ${unknown.join(', ')}. "traitscope analyze" or GET /api/traits/ lists the codes.`,
    );
  return codes;
}

export async function clientsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      'data-dir': { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      'free-traits': { type: 'string' },
    },
    USAGE,
  );
  const [action, id] = positionals;
  const dataDir = values['data-dir'] ?? defaultDataDir();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = openDatabase(databasePath(dataDir));
  try {
    switch (action) {
      case 'create': {
        if (!values.name) throw new UsageError(`--name is required.\n\nUsage: ${USAGE}`);
        const { client, secret } = await createClient(db, {
          name: values.name,
          scopes: values.scopes === undefined ? undefined : parseScopes(values.scopes),
          freeTraits: await parseFreeTraits(values['free-traits'], resolveConfig().resourcesDir),
        });
        console.log(JSON.stringify({ client_id: client.id, client_secret: secret }));
        return 0;
      }
      case 'list':
        console.log(JSON.stringify(listClients(db).map(clientJson), null, 2));
        return 0;
      case 'revoke':
        if (!id) throw new UsageError(`Which client? traitscope clients revoke CLIENT_ID`);
        if (!revokeClient(db, id)) {
          console.error(`No active client with id "${id}" ("clients list" shows them).`);
          return 1;
        }
        console.log(JSON.stringify({ client_id: id, revoked: true }));
        return 0;
      default:
        throw new UsageError(`Unknown clients action "${action ?? ''}".\n\nUsage: ${USAGE}`);
    }
  } catch (err) {
    if (err instanceof ClientInputError) throw new UsageError(err.message);
    throw err;
  } finally {
    db.close();
  }
}
