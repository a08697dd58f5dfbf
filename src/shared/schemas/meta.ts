/** Facts about the running service that any tool may read without a token. */
import { z } from 'zod';
import { API_VERSION } from '../api-version.js';

export { API_VERSION };

export const VersionInfo = z
  .object({
    version: z.string().describe('The Traitscope app version.'),
    api_version: z.string().describe('The version of this API (the OpenAPI document info.version).'),
    catalog: z.object({
      revision: z.string().describe('Changes whenever any trait definition changes (built-in or imported).'),
      traits: z.int().min(0).describe('Traits in the catalog, imported ones included.'),
    }),
    identity: z
      .object({
        origin: z.string().describe('The origin this service listens on, as the proof signs it.'),
        client_id: z.string().describe('The client id the proof is for.'),
        salt: z.string().describe("The salt of the client's stored secret hash (base64url)."),
        proof: z
          .string()
          .describe(
            'base64url(HMAC-SHA256(scrypt(secret, salt, N=16384, r=8, p=1, 32 bytes), "traitscope-service-proof\\n" + origin + "\\n" + client_id + "\\n" + challenge)); docs/api.md shows how a tool checks it.',
          ),
      })
      .optional()
      .describe('With ?challenge=&client_id=: the proof that this is the Traitscope service holding that client.'),
  })
  .meta({
    id: 'VersionInfo',
    examples: [{ version: '0.1.0', api_version: API_VERSION, catalog: { revision: '9c1e0f4a2b7d3e51', traits: 2049 } }],
  });
export type VersionInfo = z.infer<typeof VersionInfo>;
