/**
 * Express routes from the route table: a handler is registered by operationId, and the
 * method, path and token check come from the table. createApp checks that every
 * operation of the table got its handler.
 */
import { Router, type RequestHandler } from 'express';
import { expressPath, operations, type OperationId } from '../../shared/routes/index.js';
import { requireToken } from './auth.js';
import type { ServiceContext } from './context.js';

const registered = new WeakMap<ServiceContext, Set<OperationId>>();

export interface OperationRouter {
  router: Router;
  /** Registers the handlers of one operation of the table. */
  on: (id: OperationId, ...handlers: RequestHandler[]) => void;
}

/** A router for the operations under `mount` ('' for /oauth and /storage, '/api' for the API router). */
export function operationRouter(ctx: ServiceContext, mount: '' | '/api'): OperationRouter {
  const router = Router();
  const done = registered.get(ctx) ?? new Set<OperationId>();
  registered.set(ctx, done);
  return {
    router,
    on(id, ...handlers) {
      const op = operations[id];
      const path = expressPath(op.path);
      if (!path.startsWith(`${mount}/`)) throw new Error(`${id} (${op.path}) does not belong under "${mount}"`);
      if (done.has(id)) throw new Error(`${id} is registered twice`);
      done.add(id);
      const auth = op.scopes ? [requireToken(ctx.db, op.scopes)] : [];
      router[op.method](path.slice(mount.length), ...auth, ...handlers);
    },
  };
}

/** Throws when an operation of the table has no handler: the document would promise a route that does not exist. */
export function assertEveryOperationServed(ctx: ServiceContext): void {
  const done = registered.get(ctx) ?? new Set();
  const missing = (Object.keys(operations) as OperationId[]).filter((id) => !done.has(id));
  if (missing.length > 0) throw new Error(`Operations of the route table without a handler: ${missing.join(', ')}`);
}
