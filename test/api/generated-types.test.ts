/**
 * The committed openapi-typescript types (test/api/generated/traitscope-api.ts), which the
 * generated client's walk (generated-client.test.ts) is written against, are what the
 * OpenAPI document gives today. Loading openapi-typescript with its Redocly core and
 * rendering the document takes a few seconds of CPU, which no other test needs: hence a file
 * of its own, apart from the walk.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES, generatedTypes } from '../../scripts/openapi.js';

describe('the types of the generated client', () => {
  it('are current with the document', async () => {
    expect(readFileSync(GENERATED_TYPES, 'utf8'), 'run: npm run openapi -- --types').toBe(await generatedTypes());
  });
});
