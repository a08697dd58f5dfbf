/** `status`: whether the service runs on a data folder, where, and which versions (from service.json). */
import { defaultDataDir } from '../service/config.js';
import { processAlive, readServiceFile } from '../service/discovery.js';
import { parse } from './args.js';

const USAGE = 'traitscope status [--data-dir DIR] [--json]';

export async function statusCommand(args: string[]): Promise<number> {
  const { values } = parse(args, { 'data-dir': { type: 'string' }, json: { type: 'boolean' } }, USAGE);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const file = readServiceFile(dataDir);
  const running = file !== undefined && processAlive(file.pid);
  // The address answers only if the service is really up: ask it for its versions (a busy
  // machine may take seconds to answer; a dead address fails at once).
  let catalog: unknown;
  if (running) {
    try {
      const r = await fetch(`${file.api}/version`, { signal: AbortSignal.timeout(10_000) });
      if (r.ok) catalog = ((await r.json()) as { catalog?: unknown }).catalog;
    } catch {
      catalog = undefined;
    }
  }
  const answering = catalog !== undefined;
  if (values.json) {
    console.log(
      JSON.stringify(
        running && file
          ? { running: true, answering, ...file, catalog, data_dir: dataDir }
          : { running: false, data_dir: dataDir },
      ),
    );
  } else if (!running || !file) {
    console.log(
      `Traitscope is not running on ${dataDir}. Start it with: npm run serve${values['data-dir'] ? ` -- --data-dir ${dataDir}` : ''}`,
    );
  } else {
    console.log(
      `Traitscope ${file.version} is running (pid ${file.pid}) on ${dataDir}${answering ? '' : ', but does not answer at its address'}.`,
    );
    console.log(`API:       ${file.api}   (API version ${file.api_version})`);
    console.log(`Reference: ${file.docs}`);
    console.log(`OpenAPI:   ${file.api}/openapi.json`);
  }
  return running && answering ? 0 : 1;
}
