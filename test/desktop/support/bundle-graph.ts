/**
 * What the bundled worker needs at run time, read from the built files themselves: the
 * worker entries (modules that take their job from `node:worker_threads`), the chunks they
 * import and the native addons those chunks load, so a test can compare it with what the
 * package unpacks — whatever the entries and chunks are called.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ModuleImports {
  /** Static `import … from` / `export … from` specifiers. */
  staticImports: string[];
  /** Relative files loaded with require() (native addons emitted beside the bundle). */
  requiredFiles: string[];
}

const STATIC_IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)";/gm;
const BARE_SIDE_EFFECT_IMPORT = /^import\s*"([^"]+)";/gm;
const REQUIRE_RELATIVE = /__require\("(\.{1,2}\/[^"]+)"\)/g;

export function moduleImports(file: string): ModuleImports {
  const code = readFileSync(file, 'utf8');
  const staticImports = [...code.matchAll(STATIC_IMPORT), ...code.matchAll(BARE_SIDE_EFFECT_IMPORT)].map((m) => m[1]);
  const requiredFiles = [...code.matchAll(REQUIRE_RELATIVE)].map((m) => m[1]);
  return { staticImports, requiredFiles };
}

/** Bundle files (relative to `dir`, with forward slashes) that run as worker threads. */
export function workerEntries(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .filter((name) =>
      /import\s*\{[^}]*\bparentPort\b[^}]*\}\s*from\s*"node:worker_threads"/.test(
        readFileSync(path.join(dir, name), 'utf8'),
      ),
    );
}

/**
 * Every file a worker entry needs, relative to the bundle folder: the entry, the chunks it
 * imports (transitively) and the addons they require that exist in the bundle (the
 * addon loader also tries other platforms' file names, which are absent and tolerated).
 */
export function workerClosure(dir: string, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (rel: string) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    if (!rel.endsWith('.js')) return;
    const { staticImports, requiredFiles } = moduleImports(path.join(dir, rel));
    for (const spec of staticImports) if (spec.startsWith('.')) visit(path.posix.join(path.posix.dirname(rel), spec));
    for (const spec of requiredFiles) {
      const target = path.posix.join(path.posix.dirname(rel), spec);
      if (existsSync(path.join(dir, target))) visit(target);
    }
  };
  visit(entry);
  return seen;
}

/** Static imports that a module loaded from app.asar.unpacked could not resolve: anything but Node built-ins and relative files. */
export function unresolvableImports(file: string): string[] {
  return moduleImports(file).staticImports.filter((spec) => !spec.startsWith('node:') && !spec.startsWith('.'));
}
