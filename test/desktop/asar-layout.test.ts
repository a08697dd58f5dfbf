/**
 * The packaged layout, checked on a package electron-builder makes here from the real
 * build output and electron-builder.yml (Electron's binary replaced by a stand-in, see
 * support/stand-in-package.ts), read back with @electron/asar:
 * - nothing but the bundle, the preload script, the UI and the data ships: no node_modules,
 *   no sources, no source maps, no build intermediates, and of the bundle only what the main
 *   process and the workers load (not the command line's chunks);
 * - exactly the parse worker with what it loads, and the data it reads, is unpacked;
 * - the resolution functions the app uses point at files that exist in that layout;
 * - the bundled service, started from the layout as the main process starts it, processes
 *   a genome in its worker loaded from app.asar.unpacked.
 * Electron itself runs in the packaged-app smoke test (packaged-app.test.ts) on CI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as asar from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedFiles } from '../../src/main/app-paths.js';
import { packagedArchive, sqliteNativeBinding, unpackedModuleUrl } from '../../src/service/packaged-paths.js';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { request } from '../support/server.js';
import { builderConfig, ensureBuilt } from './support/build.js';
import { unresolvableImports, workerClosure, workerEntries } from './support/bundle-graph.js';
import { packWithStandInElectron, type StandInPackage } from './support/stand-in-package.js';

/** The data the service reads at run time: catalog (and its compiled form), distribution tables, ancestry data. */
const SHIPPED_DATA =
  /^resources\/(catalog\/([^/]+\.json\.gz|catalog\.bin|distributions\.bin|positions\.bin|liftover\.bin)|ancestry\/[^/]+\.gz|pharmacogenes\/[^/]+)$/;

interface Entry {
  path: string;
  unpacked: boolean;
}

/** Every file of the archive, with forward slashes, and whether it lives in app.asar.unpacked. */
function archiveEntries(archive: string): Entry[] {
  type Node = { files?: Record<string, Node>; unpacked?: boolean };
  const out: Entry[] = [];
  const walk = (node: Node, prefix: string) => {
    if (!node.files) return void out.push({ path: prefix, unpacked: Boolean(node.unpacked) });
    for (const [name, child] of Object.entries(node.files)) walk(child, prefix ? `${prefix}/${name}` : name);
  };
  walk(asar.getRawHeader(archive).header, '');
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

describe('the packaged layout (electron-builder.yml applied to the real build)', () => {
  let pkg: StandInPackage;
  let entries: Entry[];
  const work = mkdtempSync(path.join(tmpdir(), 'traitscope-layout-'));

  beforeAll(async () => {
    ensureBuilt();
    pkg = await packWithStandInElectron();
    entries = archiveEntries(pkg.archive);
  }, 300_000);
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    if (pkg) rmSync(path.resolve(pkg.appDir, '..', '..'), { recursive: true, force: true });
  });

  it('ships the bundle, the preload script, the UI and the data, and nothing else', () => {
    const paths = entries.map((e) => e.path);
    const stray = paths.filter(
      (p) =>
        !/^out\/(main|preload|renderer|native)\//.test(p) &&
        !SHIPPED_DATA.test(p) &&
        p !== 'resources/THIRD_PARTY_NOTICES.md' &&
        p !== 'package.json',
    );
    expect(stray, 'files outside the bundle and the shipped data').toEqual([]);
    expect(paths.filter((p) => /node_modules|\.(map|ts|c|cc|cpp|h|gyp|mk|o|a|obj)$/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('out/native/'))).toEqual(['out/native/better_sqlite3.node']);
    for (const part of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'])
      expect(paths).toContain(part);
  });

  it('ships only the bundle files the main process or a worker loads (not the command line’s)', () => {
    const bundleDir = path.join(pkg.unpackedDir, 'out', 'main');
    const archiveDir = path.join(work, 'archive');
    asar.extractAll(pkg.archive, archiveDir);
    const mainDir = path.join(archiveDir, 'out', 'main');
    const loaded = new Set(workerClosure(mainDir, 'index.js'));
    for (const worker of workerEntries(bundleDir))
      for (const file of workerClosure(bundleDir, worker)) loaded.add(file);
    const shipped = entries.map((e) => e.path).filter((p) => /^out\/main\/[^/]+\.js$/.test(p));
    expect(shipped.filter((p) => !loaded.has(p.slice('out/main/'.length)))).toEqual([]);
    expect(shipped).not.toContain('out/main/cli.js');
  });

  it('unpacks exactly the parse worker, the chunks and addons it loads, better-sqlite3 and the data the worker reads', () => {
    const bundleDir = path.join(pkg.unpackedDir, 'out', 'main');
    const workers = workerEntries(bundleDir);
    expect(workers.length, 'worker entries in the unpacked bundle').toBeGreaterThan(0);
    const needed = new Set<string>(['out/native/better_sqlite3.node']);
    for (const worker of workers) for (const file of workerClosure(bundleDir, worker)) needed.add(`out/main/${file}`);
    for (const e of entries) if (SHIPPED_DATA.test(e.path)) needed.add(e.path);

    const unpacked = entries.filter((e) => e.unpacked).map((e) => e.path);
    expect(unpacked.sort()).toEqual([...needed].sort());
    // The main entry, the preload script and the UI stay inside the integrity-checked archive.
    const packed = entries.filter((e) => !e.unpacked).map((e) => e.path);
    expect(packed).toEqual(
      expect.arrayContaining(['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']),
    );
    for (const file of unpacked) expect(existsSync(path.join(pkg.unpackedDir, file)), file).toBe(true);
  });

  it('gives the worker nothing to import that only exists inside the archive', () => {
    const bundleDir = path.join(pkg.unpackedDir, 'out', 'main');
    for (const worker of workerEntries(bundleDir)) {
      for (const file of workerClosure(bundleDir, worker)) {
        if (file.endsWith('.js'))
          expect(unresolvableImports(path.join(bundleDir, file)), `imports of ${file}`).toEqual([]);
      }
    }
  });

  it('resolves the worker, better-sqlite3 and the shipped files to paths that exist', () => {
    const asMain = pathToFileURL(path.join(pkg.archive, 'out', 'main', 'index.js')).href;
    const asWorker = pathToFileURL(path.join(pkg.unpackedDir, 'out', 'main', 'index.js')).href;
    expect(packagedArchive(asMain)).toBe(pkg.archive);
    expect(packagedArchive(asWorker)).toBe(pkg.archive);

    for (const worker of workerEntries(path.join(pkg.unpackedDir, 'out', 'main'))) {
      const url = unpackedModuleUrl(`./${worker}`, asMain);
      expect(url.pathname).toContain('/app.asar.unpacked/');
      expect(existsSync(url), `${worker} as the main process resolves it`).toBe(true);
    }
    for (const from of [asMain, asWorker]) {
      const binding = sqliteNativeBinding(from);
      expect(binding).toBe(path.join(pkg.unpackedDir, 'out', 'native', 'better_sqlite3.node'));
      expect(existsSync(binding!)).toBe(true);
    }

    const files = shippedFiles(pkg.archive);
    for (const file of ['catalog/catalog.json.gz', 'catalog/catalog.bin', 'catalog/distributions.bin'])
      expect(existsSync(path.join(files.resourcesDir, file)), file).toBe(true);
    expect(path.relative(pkg.archive, files.uiDir).split(path.sep).join('/')).toBe('out/renderer');
    expect(entries.map((e) => e.path)).toContain('out/renderer/index.html');
  });

  it('has the fuses of electron-builder.yml burnt into the executable', async () => {
    const fuses = (await builderConfig()).electronFuses!;
    const wire = await getCurrentFuseWire(pkg.executable);
    // The wire's bytes: '1' (49) enabled, '0' (48) disabled (@electron/fuses does not export FuseState).
    const state = (option: FuseV1Options) => ({ 49: true, 48: false })[Number(wire[option])];
    expect(state(FuseV1Options.RunAsNode)).toBe(fuses.runAsNode);
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(fuses.enableNodeOptionsEnvironmentVariable);
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe(fuses.enableNodeCliInspectArguments);
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(
      fuses.enableEmbeddedAsarIntegrityValidation,
    );
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe(fuses.onlyLoadAppFromAsar);
  });

  describe('the bundled service started from the layout', () => {
    let child: ChildProcess | undefined;
    afterAll(async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    });

    it('processes a genome in the worker loaded from app.asar.unpacked', async () => {
      // Electron's view of the archive under Node: app.asar as a folder, its unpacked twin
      // beside it. Worker entries and the data are removed from the folder, as they exist
      // only in app.asar.unpacked, so a worker or data path that points into the archive fails.
      const resources = path.join(work, 'resources');
      const archiveDir = path.join(resources, 'app.asar');
      asar.extractAll(pkg.archive, archiveDir);
      cpSync(pkg.unpackedDir, path.join(resources, 'app.asar.unpacked'), { recursive: true });
      for (const worker of workerEntries(path.join(archiveDir, 'out', 'main')))
        rmSync(path.join(archiveDir, 'out', 'main', worker));
      rmSync(path.join(archiveDir, 'resources', 'catalog'), { recursive: true });
      rmSync(path.join(archiveDir, 'resources', 'ancestry'), { recursive: true });
      rmSync(path.join(archiveDir, 'out', 'native'), { recursive: true });

      const files = shippedFiles(archiveDir);
      const runner = path.join(import.meta.dirname, 'support', 'run-packaged-service.mjs');
      child = spawn(
        process.execPath,
        [
          runner,
          path.join(archiveDir, 'out', 'main', 'service.js'),
          path.join(work, 'data'),
          files.resourcesDir,
          files.uiDir,
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stderr!.on('data', (d) => (output += d));
      const { origin, token } = await new Promise<{ origin: string; token: string }>((resolve, reject) => {
        child!.stdout!.on('data', (d) => {
          output += d;
          const line = /^\{.*\}$/m.exec(output);
          if (line) resolve(JSON.parse(line[0]));
        });
        child!.once('exit', (code) => reject(new Error(`the packaged service exited with ${code}:\n${output}`)));
      });

      const api = `${origin}/api`;
      const profile = await request(`${api}/profiles/`, {
        method: 'POST',
        token,
        json: { first_name: 'Ada', age: 36, ethnicity: 1 },
      });
      expect(profile.status).toBe(201);
      const id = profile.body.id as string;
      const grant = await request(`${api}/profiles/${id}/genotype/upload/?content-type=text/plain`, { token });
      const put = await request(grant.body.url, {
        method: 'PUT',
        body: twentyThreeAndMe(catalogMarkers(7)),
        headers: { 'content-type': 'text/plain' },
      }).catch((err) => {
        throw new Error(`upload failed: ${err.cause ?? err}\n${output}`);
      });
      expect(put.status, `${JSON.stringify(put.body)}\n${output}`).toBeLessThan(300);
      const processed = await request(`${api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
      expect(processed.status, `${JSON.stringify(processed.body)}\n${output}`).toBe(200);

      const genotype = await request(`${api}/profiles/${id}/genotype/`, { token });
      expect(genotype.body.metadata.status).toBe('processed');
      const scored = await request(`${api}/profiles/${id}/traits/?score`, { token });
      expect(scored.status).toBe(200);
      const computed = (scored.body as Array<{ status: string; percentile: number }>).filter(
        (t) => t.status === 'computed',
      );
      expect(computed.length, 'free traits scored after processing').toBeGreaterThan(0);
      for (const t of computed) expect(t.percentile).toBeGreaterThanOrEqual(0);

      // The UI is served from inside the archive.
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Traitscope</title>');
      // The API reference's Swagger UI files ship beside the bundle (no node_modules to find them in).
      const swagger = await fetch(`${origin}/api/docs/assets/swagger-ui-bundle.js`);
      expect(swagger.status).toBe(200);
      expect((await swagger.text()).length).toBeGreaterThan(100_000);
    });
  });
});
