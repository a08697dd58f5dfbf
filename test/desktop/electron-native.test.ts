/**
 * The check that better-sqlite3 was really built for Electron before it is packaged. Here
 * only npm's build for Node exists (building for Electron downloads its headers): the check
 * must see it for what it is and refuse it. The workflow checks the Electron build itself.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addonAbi, checkElectronBuild, electronAbi, electronVersion } from '../../scripts/desktop/electron-native.js';
import { ROOT } from './support/build.js';

const nodeBuild = path.join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

describe('the Electron build check of better-sqlite3', () => {
  it('reads the ABI an addon was built for', () => {
    expect(addonAbi(nodeBuild)).toBe(Number(process.versions.modules));
  });

  it('knows the ABI of the installed Electron, which is not Node’s', () => {
    expect(electronAbi(electronVersion())).toBeGreaterThan(Number(process.versions.modules));
  });

  it('refuses a build for Node, saying which runtime it is for and how to fix it', () => {
    expect(() => checkElectronBuild(nodeBuild)).toThrow(
      new RegExp(
        `built for Node ${process.version.replace(/\./g, '\\.')} \\(NODE_MODULE_VERSION ${process.versions.modules}\\), not for Electron ${electronVersion().replace(/\./g, '\\.')}`,
      ),
    );
  });

  it('refuses a missing build', () => {
    expect(() => checkElectronBuild(path.join(ROOT, 'out', 'native', 'missing.node'))).toThrow(/does not exist/);
  });
});
