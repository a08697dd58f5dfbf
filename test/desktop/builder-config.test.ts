/**
 * electron-builder.yml against electron-builder's own schema, and the installers' file
 * associations against the extensions the app opens (src/shared/genotype-files.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENOTYPE_EXTENSIONS } from '../../src/shared/genotype-files.js';
import { builderConfig, ROOT, validateBuilderConfig } from './support/build.js';

describe('electron-builder.yml', () => {
  it('is valid against electron-builder’s schema', async () => {
    await expect(validateBuilderConfig(await builderConfig())).resolves.toBeUndefined();
  });

  it('is checked against the schema (an unknown option is refused)', async () => {
    const config = { ...(await builderConfig()), asarUnpak: ['out/main/**/*'] };
    await expect(validateBuilderConfig(config as never)).rejects.toThrow(/asarUnpak/);
  });

  it('associates every genotype file type the app opens, on each system', async () => {
    const config = await builderConfig();
    const extensions = (associations: unknown) =>
      [(associations as Array<{ ext: string | string[] }>).flatMap((a) => a.ext)].flat().sort();
    const expected = [...GENOTYPE_EXTENSIONS].sort();
    expect(extensions(config.mac!.fileAssociations)).toEqual(expected);
    expect(extensions(config.linux!.fileAssociations)).toEqual(expected);
    // Windows: "Open with" entries written by the NSIS include (never the default program).
    const nsh = readFileSync(path.join(ROOT, 'resources', 'build', 'installer.nsh'), 'utf8');
    const registered = [...nsh.matchAll(/!insertmacro TraitscopeOpenWith "(\w+)"/g)].map((m) => m[1]).sort();
    const unregistered = [...nsh.matchAll(/!insertmacro TraitscopeNoOpenWith "(\w+)"/g)].map((m) => m[1]).sort();
    expect(registered).toEqual(expected);
    expect(unregistered).toEqual(expected);
  });
});
