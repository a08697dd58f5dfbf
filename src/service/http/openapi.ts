/**
 * The OpenAPI 3.1 document of the whole API, generated from the route table
 * (src/shared/routes) and its zod schemas: the same table the express routers and the
 * renderer's client are built from. It does not depend on the running port: the server
 * is a template with the port as a variable.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { API_VERSION, EXTENSION } from '../../shared/api.js';
import { operations, type Operation, type ParamSpec, type ResponseSpec, type Tag } from '../../shared/routes/index.js';
import { Detail } from '../../shared/schemas/common.js';
import { DEFAULT_PORT } from '../config.js';
import { errorCode } from './errors.js';
import { workflowGuide } from './workflow-guide.js';

type Json = Record<string, unknown>;
const COMPONENTS = '#/components/schemas/';

const TAGS: Record<Tag, string> = {
  Authentication: 'OAuth 2.0 client credentials: trade a client id and secret for a bearer token.',
  Profiles: 'One profile per person; each belongs to the client that created it.',
  Genotype: 'Upload a raw-data file through a time-limited URL, follow its processing, look markers up.',
  Traits: "The client's traits with pricing, and each profile's statuses and assessments.",
  Service: 'Versions, this document and its reference page. No token needed.',
  App: "Internal: only the Traitscope app's own client (scope manage:app) may call these.",
};

// ---- Schemas ------------------------------------------------------------------------

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** zod's JSON Schema, made plain for OpenAPI tools: tuples as fixed-length arrays, no redundant bounds or patterns. */
function tidy(schema: Json): void {
  delete schema.$schema;
  delete schema.$id;
  if (schema.minimum === -SAFE_INT) delete schema.minimum;
  if (schema.maximum === SAFE_INT) delete schema.maximum;
  if (typeof schema.format === 'string' && ['uuid', 'date-time', 'uri', 'email'].includes(schema.format))
    delete schema.pattern;
  if (Array.isArray(schema.enum) && schema.type === 'number' && schema.enum.every(Number.isInteger))
    schema.type = 'integer';
  if (Array.isArray(schema.prefixItems)) {
    // A homogeneous tuple ([x, y]) as an array of exactly that many items: generated clients and linters handle it.
    const items = schema.prefixItems as Json[];
    schema.type = 'array';
    schema.items = items[0];
    schema.minItems = items.length;
    schema.maxItems = items.length;
    delete schema.prefixItems;
  }
  for (const value of Object.values(schema)) {
    if (Array.isArray(value)) {
      for (const v of value as unknown[]) if (v && typeof v === 'object') tidy(v as Json);
    } else if (value && typeof value === 'object') tidy(value as Json);
  }
}

/**
 * Converts the registered components and the inline schemas of the operations in one
 * pass, so inline schemas refer to components by $ref.
 */
function convertSchemas(inline: z.ZodType[]): { components: Record<string, Json>; inlineJson: Map<z.ZodType, Json> } {
  const registry = z.registry<{ id: string }>();
  const componentIds = new Set<string>();
  for (const [schema, meta] of globalRegistryEntries()) {
    registry.add(schema, { id: meta.id });
    componentIds.add(meta.id);
  }
  const synthetic = new Map<z.ZodType, string>();
  for (const schema of inline) {
    if (registry.has(schema) || synthetic.has(schema)) continue;
    const id = `__inline_${synthetic.size}`;
    synthetic.set(schema, id);
    registry.add(schema, { id });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    uri: (id) => `${COMPONENTS}${id}`,
  }) as { schemas: Record<string, Json> };
  if (schemas.__shared) throw new Error('A schema is shared without an id; give it .meta({ id }).');
  for (const schema of Object.values(schemas)) tidy(schema);
  const components: Record<string, Json> = {};
  for (const id of componentIds) components[id] = schemas[id];
  const inlineJson = new Map<z.ZodType, Json>();
  for (const schema of inline)
    inlineJson.set(schema, registryId(registry, schema, componentIds) ?? schemas[synthetic.get(schema)!]);
  return { components, inlineJson };
}

function registryId(
  registry: z.core.$ZodRegistry<{ id: string }>,
  schema: z.ZodType,
  componentIds: Set<string>,
): Json | undefined {
  const id = registry.get(schema)?.id;
  return id && componentIds.has(id) ? { $ref: `${COMPONENTS}${id}` } : undefined;
}

function globalRegistryEntries(): Array<[z.ZodType, { id: string }]> {
  const out: Array<[z.ZodType, { id: string }]> = [];
  for (const [id, schema] of (z.globalRegistry as unknown as { _idmap: Map<string, z.ZodType> })._idmap)
    out.push([schema, { id }]);
  return out;
}

/** Components reachable from the operations (unused ones would only confuse readers). */
function reachable(doc: Json, components: Record<string, Json>): Record<string, Json> {
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const ref = (value as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENTS)) {
      const id = ref.slice(COMPONENTS.length);
      if (!used.has(id)) {
        used.add(id);
        visit(components[id]);
      }
    }
    Object.values(value).forEach(visit);
  };
  visit(doc);
  return Object.fromEntries(
    Object.entries(components)
      .filter(([id]) => used.has(id))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

// ---- Examples -----------------------------------------------------------------------

/** An example for a body: the schema's own, else one built from its parts (valid by construction). */
function exampleOf(schema: Json | undefined, components: Record<string, Json>, depth = 0): unknown {
  if (!schema || depth > 12) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (typeof schema.$ref === 'string')
    return exampleOf(components[schema.$ref.slice(COMPONENTS.length)], components, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = (schema[key] as Json[] | undefined)?.filter((o) => o.type !== 'null');
    if (options?.length) return exampleOf(options[0], components, depth + 1);
  }
  const type: unknown = Array.isArray(schema.type) ? (schema.type as unknown[]).find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Json = {};
      const props = (schema.properties ?? {}) as Record<string, Json>;
      for (const key of (schema.required as string[] | undefined) ?? [])
        out[key] = exampleOf(props[key], components, depth + 1);
      return out;
    }
    case 'array': {
      const item = exampleOf(schema.items as Json, components, depth + 1);
      const min = (schema.minItems as number | undefined) ?? 1;
      return item === undefined ? [] : Array.from({ length: Math.max(1, min) }, () => item);
    }
    case 'string':
      if (schema.format === 'uuid') return '3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10';
      if (schema.format === 'date-time') return '2025-01-31T12:00:00.000Z';
      if (schema.format === 'uri') return 'http://127.0.0.1:4780/api';
      if (schema.pattern === '^rs\\d+$') return 'rs4988235';
      if (schema.pattern === '^\\d+$') return '1048576';
      return 'string';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

// ---- Operations ---------------------------------------------------------------------

function parameter(name: string, where: 'path' | 'query' | 'header', spec: ParamSpec, schema: Json): Json {
  return {
    name,
    in: where,
    required: where === 'path' || spec.required === true,
    description: spec.description,
    schema,
    ...(spec.allowEmptyValue ? { allowEmptyValue: true } : {}),
    ...(spec.example !== undefined ? { example: spec.example } : {}),
    ...(spec.extension ? { [EXTENSION]: true } : {}),
  };
}

function response(
  status: string,
  spec: ResponseSpec,
  schemas: Map<z.ZodType, Json>,
  components: Record<string, Json>,
): Json {
  const out: Json = { description: spec.description };
  if (spec.headers)
    out.headers = Object.fromEntries(
      Object.entries(spec.headers).map(([name, h]) => [
        name,
        { description: h.description, schema: h.schema, ...(h.optional ? { required: false } : {}) },
      ]),
    );
  if (spec.schema) {
    const schema = schemas.get(spec.schema)!;
    // An error's example is this operation's own: its description as the detail, and its code.
    const errorExample =
      spec.schema === Detail && /^[45]\d\d$/.test(status)
        ? { detail: spec.description, code: spec.code ?? errorCode(Number(status)) }
        : undefined;
    const media: Json = { schema, example: spec.example ?? errorExample ?? exampleOf(schema, components) };
    if (spec.itemSchema) {
      const id = z.globalRegistry.get(spec.itemSchema)?.id;
      if (!id) throw new Error('An itemSchema must be a component: give it .meta({ id }).');
      media['x-item-schema'] = { $ref: `${COMPONENTS}${id}` };
    }
    out.content = { [spec.contentType ?? 'application/json']: media };
  }
  return out;
}

function operationObject(
  id: string,
  op: Operation,
  schemas: Map<z.ZodType, Json>,
  components: Record<string, Json>,
): Json {
  const parameters: Json[] = [];
  for (const [where, specs] of [
    ['path', op.params],
    ['query', op.query],
    ['header', op.headers],
  ] as const) {
    for (const [name, spec] of Object.entries(specs ?? {}))
      parameters.push(parameter(name, where, spec, schemas.get(spec.schema)!));
  }
  const out: Json = {
    operationId: id,
    summary: op.summary,
    description: op.description,
    tags: [...op.tags],
    security: op.scopes ? [{ oauth2: [...op.scopes] }] : [],
  };
  if (parameters.length > 0) out.parameters = parameters;
  if (op.body) {
    const schema = schemas.get(op.body.schema)!;
    const example = exampleOf(schema, components);
    out.requestBody = {
      required: op.body.required ?? false,
      ...(op.body.description ? { description: op.body.description } : {}),
      content: Object.fromEntries(
        op.body.contentTypes.map((type) => [
          type,
          type.startsWith('application/json') || type.endsWith('x-www-form-urlencoded')
            ? { schema, example }
            : { schema },
        ]),
      ),
    };
  }
  out.responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, spec]) => [status, response(status, spec, schemas, components)]),
  );
  if (op.internal) out['x-internal'] = true;
  if (op.extension) out[EXTENSION] = true;
  return out;
}

function allSchemas(): z.ZodType[] {
  const out: z.ZodType[] = [];
  for (const op of Object.values(operations) as Operation[]) {
    for (const specs of [op.params, op.query, op.headers])
      for (const spec of Object.values(specs ?? {})) out.push(spec.schema);
    if (op.body) out.push(op.body.schema);
    for (const r of Object.values(op.responses)) if (r.schema) out.push(r.schema);
  }
  return out;
}

let cached: Json | undefined;

/** The document (built once: it does not change while the service runs). */
export function openApiDocument(): Json {
  if (cached) return cached;
  const { components, inlineJson } = convertSchemas(allSchemas());
  const paths: Record<string, Json> = {};
  for (const [id, op] of Object.entries(operations) as Array<[string, Operation]>) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = operationObject(id, op, inlineJson, components);
  }
  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Traitscope API',
      version: API_VERSION,
      summary: 'Genetic trait assessments computed on this machine.',
      description: workflowGuide(),
      contact: { name: 'The Traitscope authors', url: 'https://github.com/traitscope/traitscope' },
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description:
          'The Traitscope service on this computer. Its port is not fixed (4780 when free, any free port otherwise): read it from service.json in the data folder or `npm run cli -- status --json`, and check the service with GET /api/version?challenge=&client_id= before sending a secret.',
        variables: {
          host: {
            default: '127.0.0.1',
            enum: ['127.0.0.1', 'localhost'],
            description: 'Either spelling of the loopback address.',
          },
          port: {
            default: String(DEFAULT_PORT),
            description:
              'The port the service listens on: 4780 only when it was free; service.json and `cli status` give the actual one.',
          },
        },
      },
    ],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'Client credentials. POST /oauth/token with client_id, client_secret, audience ({base_url}/profiles) and grant_type=client_credentials; send the token as "Authorization: Bearer <access_token>".',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth/token',
              scopes: {
                'read:profiles': 'Read your profiles, genotypes and traits (every GET, and the POST look-up).',
                'write:profiles': 'Create, change and delete profiles, process files and compute traits.',
                'manage:app':
                  'The Traitscope app itself: API clients, imported traits, all data. Never granted to other clients.',
              },
            },
          },
        },
      },
    },
  };
  (doc.components as Json).schemas = reachable(doc, components);
  cached = doc;
  return doc;
}

/** The document as the build wrote it beside the bundle (electron.vite.config.ts); absent under tsx. */
const BUILT_DOCUMENT = new URL('./openapi.json', import.meta.url);
let served: Buffer | undefined;

/**
 * The bytes GET /api/openapi.json sends: the built file, read once, so the service's first
 * answer does not wait for the JSON Schema conversion; generated here when there is no file.
 * Read synchronously (150 kB from the page cache, once): an asynchronous read would queue
 * behind the worker pool's start-up work on libuv's threads. test/api/openapi.test.ts checks
 * that what is served equals openApiDocument().
 */
export function openApiDocumentBytes(): Buffer {
  if (served) return served;
  try {
    served = readFileSync(BUILT_DOCUMENT);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    served = Buffer.from(JSON.stringify(openApiDocument()));
  }
  return served;
}
