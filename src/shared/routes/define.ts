/**
 * The shape of one operation in the route table, and the responses every operation of a
 * kind can give (added here, so no operation forgets them).
 */
import type { z } from 'zod';
import { APP_SCOPE, Detail, type AnyScope } from '../schemas/common.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Tag = 'Authentication' | 'Profiles' | 'Genotype' | 'Traits' | 'Service' | 'App';

export interface ParamSpec {
  schema: z.ZodType;
  description: string;
  required?: boolean;
  /** Beyond interface.md. */
  extension?: boolean;
  /** Query parameters whose presence alone counts (`?score`). */
  allowEmptyValue?: boolean;
  example?: unknown;
}

export interface HeaderSpec {
  description: string;
  schema: { type: 'string' };
  /** Sent only in some answers (documented with required: false); otherwise always. */
  optional?: boolean;
}

export interface ResponseSpec {
  description: string;
  /** The body schema; none for bodiless responses (304). */
  schema?: z.ZodType;
  /** application/json unless said otherwise. */
  contentType?: string;
  headers?: Record<string, HeaderSpec>;
  /**
   * For a stream (text/event-stream): the schema of one message, a component with an id.
   * OpenAPI 3.1 has no field for it, so it is documented as `x-item-schema` (the name
   * OpenAPI 3.2 gives it, as `itemSchema`).
   */
  itemSchema?: z.ZodType;
  /**
   * An example of the body as sent. Error answers ({detail, code}) get one made from their
   * description and status unless given; a stream needs one, its schema cannot show it.
   */
  example?: unknown;
  /** The error `code` when not the status's usual one. */
  code?: string;
}

export interface BodySpec {
  schema: z.ZodType;
  /** Media types accepted; the first is the documented default. */
  contentTypes: readonly string[];
  description?: string;
  required?: boolean;
}

export interface OperationSpec {
  method: Method;
  /** The full path as documented, e.g. /api/profiles/{profile_id}/. */
  path: string;
  summary: string;
  description: string;
  tags: readonly Tag[];
  /** Scopes the token needs (all of them); null when no token is needed. */
  scopes: readonly AnyScope[] | null;
  /** Only the desktop app's own client may call it (documented with x-internal). */
  internal?: boolean;
  /** Beyond interface.md (documented with x-traitscope-extension). */
  extension?: boolean;
  params?: Record<string, ParamSpec>;
  query?: Record<string, ParamSpec>;
  headers?: Record<string, ParamSpec>;
  body?: BodySpec;
  success: ResponseSpec & { status: 200 | 201 };
  /** Statuses particular to this operation; the common ones are added by operation(). */
  errors?: Partial<Record<number, string | ResponseSpec>>;
}

export type Responses = Record<string, ResponseSpec>;
export type Operation<T extends OperationSpec = OperationSpec> = T & { responses: Responses };

const bearerChallenge: Record<string, HeaderSpec> = {
  'WWW-Authenticate': {
    description: 'Bearer challenge (RFC 6750), with error="invalid_token" for a bad token.',
    schema: { type: 'string' },
  },
};

/**
 * Completes an operation with the responses any operation of its kind can give: the host
 * check (403), headers too large (431) and unexpected errors (default) everywhere; 401 and
 * 403 with a token; 400 and 413 with a JSON body; 404 under a profile.
 */
export function operation<const T extends OperationSpec>(spec: T): Operation<T> {
  const d = (description: string): ResponseSpec => ({ description, schema: Detail });
  const common: Responses = {};
  if (spec.body && spec.body.contentTypes.includes('application/json')) {
    common[400] = d('The body is not valid JSON, or not the shape this operation takes; the detail says which.');
    common[413] = d('The body is larger than this operation accepts.');
  }
  if (spec.scopes) {
    common[401] = {
      ...d('No token, or it is invalid, expired or revoked. Get a new one with POST /oauth/token.'),
      headers: bearerChallenge,
    };
    const needs = spec.scopes.includes(APP_SCOPE)
      ? "the Traitscope app's own client (scope manage:app)"
      : `the ${spec.scopes.join(' and ')} scope`;
    common[403] = d(`The operation needs ${needs}, or the Host header is not this service's address.`);
  } else {
    common[403] = d("The Host header is not this service's address (127.0.0.1:<port> or localhost:<port>).");
  }
  if (spec.path.includes('{profile_id}')) common[404] = d('No profile with this id exists for this client.');
  common[431] = d(
    'The request line or headers are too large (e.g. too many rsIDs in a query string: use the POST form).',
  );
  const own: Responses = {};
  for (const [status, value] of Object.entries(spec.errors ?? {})) {
    if (value !== undefined) own[status] = typeof value === 'string' ? d(value) : value;
  }
  const { status, ...success } = spec.success;
  return {
    ...spec,
    responses: {
      [status]: success,
      ...common,
      ...own,
      default: d('Something unexpected went wrong inside Traitscope; nothing was changed.'),
    },
  };
}

/** The express form of a documented path: /api/profiles/{profile_id}/ → /api/profiles/:profile_id */
export function expressPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ':$1').replace(/(.)\/$/, '$1');
}
