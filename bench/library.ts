/**
 * The service's modules as the bundle ships them: out/main/library.js, built by
 * `npm run bench` (electron-vite) from the same sources and into the same chunks as the
 * desktop app and the command line. The benchmarks measure this, not the TypeScript sources.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type Library = typeof import('../src/service/library.js');

export const ROOT = path.resolve(import.meta.dirname, '..');
export const LIBRARY = path.join(ROOT, 'out', 'main', 'library.js');

export async function loadLibrary(): Promise<Library> {
  if (!existsSync(LIBRARY))
    throw new Error('The bundle is missing: run `npm run bench` (it builds first) or `npm run build`.');
  return (await import(pathToFileURL(LIBRARY).href)) as Library;
}
