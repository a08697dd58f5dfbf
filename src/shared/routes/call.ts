/**
 * Types of a call to an operation of the route table (path and query parameters, body,
 * response) and the request line it makes: what a typed client needs, derived from the
 * table so it cannot drift from the service. Only types come from the table itself; the
 * request line is made from operation-table.ts, which the UI's build replaces with a
 * literal, so the UI's bundle carries no zod schemas.
 */
import type { z } from 'zod';
import type { OperationId, Operations } from './index.js';
import { OPERATION_TABLE } from './operation-table.js';

type ParamValues<P> = { [K in keyof P]: P[K] extends { schema: infer S extends z.ZodType } ? z.input<S> : never };

/** The arguments of a call: `path` and `body` when the operation has them, optional `query`. */
export type CallArgs<Id extends OperationId> = (Operations[Id] extends { params: infer P }
  ? { path: ParamValues<P> }
  : unknown) &
  (Operations[Id] extends { query: infer Q } ? { query?: Partial<ParamValues<Q>> } : unknown) &
  (Operations[Id] extends { body: { schema: infer B extends z.ZodType } } ? { body: z.input<B> } : unknown);

/** The body of the operation's success response. */
export type ResponseBody<Id extends OperationId> = Operations[Id]['success'] extends {
  schema: infer S extends z.ZodType;
}
  ? z.output<S>
  : undefined;

interface LooseArgs {
  path?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

/** Method and path with query string of a call, e.g. ["GET", "/api/profiles/3f…/traits/?score="]. */
export function requestLine<Id extends OperationId>(id: Id, args: CallArgs<Id>): { method: string; path: string } {
  const op = OPERATION_TABLE[id];
  const { path = {}, query = {} } = args as LooseArgs;
  const filled = op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    const value = path[name];
    if (value === undefined) throw new Error(`${id} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.append(key, String(value));
  const qs = search.toString();
  return { method: op.method.toUpperCase(), path: qs ? `${filled}?${qs}` : filled };
}
