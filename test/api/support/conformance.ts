/**
 * Checks HTTP exchanges against the OpenAPI document, as a strict third-party client
 * would: every response of /api, /oauth and /storage must be one the document lists for
 * its operation and status, with a body that validates against its schema (closed: no
 * undocumented field), and every request the service accepted must validate against the
 * documented request body (open: unknown keys are allowed, as the service ignores them).
 *
 * Trait lists are about 4 MB of JSON each and are read many times over a worker's files, so
 * the verdict costs as little as it can without changing: a body is validated first by a
 * validator that stops at the first error (one that collects every error names them once
 * one is found), and a body text that already conformed to a schema is not parsed or
 * validated again (the verdict depends on the schema and the text alone).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CLI_BUNDLE } from '../../support/bundle.js';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Every object schema with properties and no word on extra ones gets additionalProperties: false. */
function closed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(closed) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = closed(v);
  if (out.type === 'object' && out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out as T;
}

interface DocumentedOperation {
  id: string;
  method: string;
  pattern: RegExp;
  pointer: string;
  op: Json;
}

type Which = 'closed' | 'open';

/**
 * One Ajv per schema set and error mode, each holding the whole document once. The verdict's
 * (allErrors false) validates a trait list in less than half the time; with inlineRefs false a
 * component used by many operations (a trait, an assessment) is compiled once, not into each.
 * The document itself is not checked against the JSON Schema meta-schema here (0.2 s of CPU
 * a process): `npm run lint:api` validates it.
 */
function documentAjv(schema: Json, allErrors: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors, inlineRefs: allErrors, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(schema);
  return ajv;
}

/**
 * The document the service sends on /api/openapi.json: built from the route table with the
 * bundle the tests run (test/support/bundle.ts builds it when the sources are newer). Read,
 * not generated again: generating it took each worker process 0.7 s of CPU.
 */
const BUILT_DOCUMENT = path.join(path.dirname(CLI_BUNDLE), 'openapi.json');

class Conformance {
  readonly doc = JSON.parse(readFileSync(BUILT_DOCUMENT, 'utf8')) as Json;
  private readonly schemas: Record<Which, Json> = {
    closed: { ...closed(this.doc), $id: 'closed' },
    open: { ...this.doc, $id: 'open' },
  };
  /** The verdict's validators stop at the first error; the naming ones (allErrors) are made on a failure. */
  private readonly verdictAjv = new Map<Which, Ajv2020>();
  private readonly namingAjv = new Map<Which, Ajv2020>();
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Response body texts that conformed to their schema (conformedKey). */
  private readonly conformed = new Set<string>();
  private readonly operations: DocumentedOperation[] = [];

  constructor() {
    for (const [path, item] of Object.entries(this.doc.paths as Json)) {
      const pattern = new RegExp(
        `^${path
          .replace(/\./g, '\\.')
          .replace(/\{[a-z_]+\}/g, '[^/]+')
          .replace(/\/$/, '')}/?$`,
      );
      for (const [method, op] of Object.entries(item as Json)) {
        this.operations.push({
          id: op.operationId,
          method: method.toUpperCase(),
          pattern,
          pointer: `/paths/${escape(path)}/${method}`,
          op,
        });
      }
    }
  }

  private validator(which: Which, pointer: string, allErrors: boolean): ValidateFunction {
    const key = `${which}#${pointer}#${allErrors}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      const ajvs = allErrors ? this.namingAjv : this.verdictAjv;
      let ajv = ajvs.get(which);
      if (!ajv) ajvs.set(which, (ajv = documentAjv(this.schemas[which], allErrors)));
      fn = ajv.compile({ $ref: `${which}#${pointer}` });
      this.compiled.set(key, fn);
    }
    return fn;
  }

  private check(which: Which, pointer: string, value: unknown, what: string): string[] {
    if (this.validator(which, pointer, false)(value)) return [];
    const naming = this.validator(which, pointer, true);
    naming(value);
    return [
      `${what} does not match ${pointer.replace(/~1/g, '/')}: ${this.namingAjv.get(which)!.errorsText(naming.errors, { separator: '; ' })}`,
    ];
  }

  /**
   * Problems with one message of a documented stream, checked against the item schema
   * (x-item-schema) of the operation's 200 answer; empty when it conforms.
   */
  streamMessageProblems(operationId: string, message: unknown): string[] {
    const op = this.operations.find((o) => o.id === operationId);
    const content = (op?.op.responses?.['200']?.content ?? {}) as Json;
    const ref = (Object.values(content)[0] as Json | undefined)?.['x-item-schema']?.$ref as string | undefined;
    if (!ref) return [`${operationId} documents no item schema for its stream`];
    return this.check('closed', ref.slice(1), message, `a message of ${operationId}`);
  }

  /** Problems with one exchange; empty when it conforms. */
  problems(exchange: {
    method: string;
    url: URL;
    requestType?: string;
    requestBody?: string;
    status: number;
    responseType: string;
    responseText: string;
    responseHeaders?: Headers;
  }): string[] {
    const { method, url, status } = exchange;
    const label = `${method} ${url.pathname}${url.search} → ${status}`;
    const operation = this.operations.find((o) => o.method === method && o.pattern.test(url.pathname));
    const json = exchange.responseType.startsWith('application/json');
    const responses = operation?.op.responses as Json | undefined;
    const key = responses?.[String(status)] ? String(status) : 'default';
    const content = responses?.[key]?.content as Json | undefined;
    const mediaType = content && Object.keys(content).find((t) => exchange.responseType.startsWith(t));
    const bodyPointer =
      mediaType === 'application/json'
        ? `${operation!.pointer}/responses/${key}/content/${escape(mediaType)}/schema`
        : undefined;
    // A text that conformed to this schema before is known to be JSON that conforms.
    const textKey = bodyPointer && exchange.responseText ? conformedKey(bodyPointer, exchange.responseText) : undefined;
    const known = textKey !== undefined && this.conformed.has(textKey);
    let body: unknown;
    try {
      if (!known) body = json && exchange.responseText ? JSON.parse(exchange.responseText) : exchange.responseText;
    } catch {
      return [`${label}: the body is not the JSON its Content-Type says`];
    }
    if (!operation || !responses) {
      // Not an operation: only an error, with the error body of its area.
      if (status < 400) return [`${label}: a success response from an undocumented operation`];
      const schema =
        url.pathname.startsWith('/oauth/') && json && body && typeof body === 'object' && 'error' in body
          ? 'OAuthError'
          : 'Detail';
      return this.check('closed', `/components/schemas/${schema}`, body, label);
    }
    if (!responses[String(status)] && status < 500)
      return [`${label}: status ${status} is not documented for ${operation.id}`];
    const response = responses[key] as Json;
    const out: string[] = [];
    if (!content) {
      if (exchange.responseText) out.push(`${label}: ${operation.id} documents no body for ${key}, but one was sent`);
    } else if (!mediaType) {
      out.push(
        `${label}: Content-Type "${exchange.responseType}" is not documented (${Object.keys(content).join(', ')})`,
      );
    } else if (bodyPointer && !known) {
      const problems = this.check('closed', bodyPointer, body, `${label} (${operation.id})`);
      if (problems.length === 0 && textKey) this.conformed.add(textKey);
      out.push(...problems);
    }
    // Documented headers are sent (a 401 on processGenotype without a token problem has no challenge).
    for (const [header, spec] of Object.entries((response.headers as Json | undefined) ?? {})) {
      if ((spec as Json).required === false) continue; // sent only in some answers
      if (header === 'WWW-Authenticate' && operation.id === 'processGenotype') continue;
      if (exchange.responseHeaders && !exchange.responseHeaders.has(header))
        out.push(`${label}: the documented header ${header} is missing`);
    }
    // A request the service accepted must be one the document accepts.
    if (status < 300 && exchange.requestBody !== undefined && operation.op.requestBody) {
      const types = Object.keys(operation.op.requestBody.content as Json);
      const sent = (exchange.requestType ?? '').split(';')[0].trim().toLowerCase();
      const mediaType =
        types.find((t) => t === sent) ??
        (types.includes('application/json') && sent === '' ? 'application/json' : undefined);
      if (!mediaType)
        out.push(
          `${label}: the request Content-Type "${sent}" is not documented for ${operation.id} (${types.join(', ')})`,
        );
      else if (mediaType === 'application/json' || mediaType === 'application/x-www-form-urlencoded') {
        const value =
          mediaType === 'application/json'
            ? JSON.parse(exchange.requestBody)
            : Object.fromEntries(new URLSearchParams(exchange.requestBody));
        out.push(
          ...this.check(
            'open',
            `${operation.pointer}/requestBody/content/${escape(mediaType)}/schema`,
            value,
            `${label}: the accepted request body`,
          ),
        );
      }
    }
    return out;
  }
}

/** The schema and the SHA-1 of a body text (4 MB hash in about 7 ms; parsing and validating it take 60). */
function conformedKey(pointer: string, text: string): string {
  return `${pointer}#${createHash('sha1').update(text).digest('base64')}`;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

let instance: Conformance | undefined;
export function conformance(): Conformance {
  instance ??= new Conformance();
  return instance;
}

/** Whether a URL is one of the service's documented areas (not the web UI or the reference page's assets). */
export function isApiUrl(url: URL): boolean {
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') return false;
  if (url.pathname.startsWith('/api/docs/assets/')) return false;
  return /^\/(api|oauth|storage)(\/|$)/.test(url.pathname);
}
