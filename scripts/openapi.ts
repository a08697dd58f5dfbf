/**
 * Prints the OpenAPI document (`npm run --silent openapi > openapi.json`), or with
 * `--lint` checks it with an OpenAPI 3.1 validator and Spectral's oas ruleset, failing on
 * any error (used by .ci/run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument } from '../src/service/http/openapi.js';

const ROOT = path.resolve(import.meta.dirname, '..');

async function lint(): Promise<number> {
  const doc = openApiDocument();
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  if (!result.valid) {
    console.error('OpenAPI 3.1 schema validation failed:');
    console.error(JSON.stringify(result.errors, null, 2));
    return 1;
  }
  console.log(`openapi: valid OpenAPI ${validator.version} document (${Object.keys(doc.paths as object).length} paths)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const spectral = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js'), 'lint', file, '--ruleset', path.join(ROOT, '.spectral.yaml'), '--fail-severity', 'warn'],
      { stdio: 'inherit', cwd: ROOT },
    );
    return spectral.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--lint')) {
  process.exit(await lint());
} else {
  process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
}
