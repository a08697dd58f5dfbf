/**
 * The UI's bundle (out/renderer, built by the global set-up when stale) carries no schema
 * registry: the renderer calls the API through the plain operation table and checks its
 * form with the plain profile-field rules, so zod never reaches the page. Importing one
 * runtime value from src/shared/api.ts would bring it back, some 137 kB.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.js';

const ASSETS = path.join(ROOT, 'out', 'renderer', 'assets');
const scripts = () => readdirSync(ASSETS).filter((f) => f.endsWith('.js'));

/** Strings every zod 4 build contains (its internals' names and its error class). */
const ZOD_SIGNATURES = ['_zod', 'ZodError', '$ZodType'];
/** The UI's scripts without zod were 376 kB (with it, 513 kB): room to grow, not to take the registry back. */
const BUDGET_KB = 450;

describe("the UI's bundle", () => {
  it('holds no zod code', () => {
    expect(scripts().length).toBeGreaterThan(0);
    for (const file of scripts()) {
      const text = readFileSync(path.join(ASSETS, file), 'utf8');
      for (const signature of ZOD_SIGNATURES) {
        expect(
          text.includes(signature),
          `${file} contains "${signature}": a renderer module imports a zod schema at run time (import types only from src/shared/api.ts)`,
        ).toBe(false);
      }
    }
  });

  it(`stays under ${BUDGET_KB} kB of script`, () => {
    const kB = scripts().reduce((sum, f) => sum + readFileSync(path.join(ASSETS, f)).length, 0) / 1000;
    expect(kB, `the UI's scripts are ${kB.toFixed(0)} kB`).toBeLessThan(BUDGET_KB);
  });
});
