/**
 * Every non-2xx response of /api and /storage has the body {"detail": "..."}: what went
 * wrong and how to fix it. Route code throws HttpError; the handler below renders it.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { QueueFullError } from '../processing/processor.js';
import { allowedMethods } from './allowed-methods.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const unknownRoute: RequestHandler = (req, _res, next) => {
  const path = `${req.baseUrl}${req.path}`;
  const methods = allowedMethods(path);
  if (methods.length > 0) {
    return next(
      new HttpError(405, `${path} does not take ${req.method}; it takes ${methods.join(', ')}. See /api/docs.`, {
        Allow: methods.join(', '),
      }),
    );
  }
  next(
    new HttpError(404, `There is no ${req.method} ${path}. The API is described at /api/docs (and /api/openapi.json).`),
  );
};

export const errorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (err instanceof HttpError) {
    res.status(err.status).set(err.headers).json({ detail: err.detail });
    return;
  }
  if (err instanceof QueueFullError) {
    res.status(503).set('Retry-After', String(err.retryAfterSeconds)).json({ detail: err.message });
    return;
  }
  // body-parser errors carry a status and a type.
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    res
      .status(400)
      .json({ detail: `The request body is not valid JSON (${(err as Error).message}). Send a JSON document.` });
    return;
  }
  if (type === 'entity.too.large') {
    res.status(413).json({ detail: 'The request body is too large for this operation.' });
    return;
  }
  const status = (err as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json({ detail: (err as Error).message });
    return;
  }
  console.error('[traitscope] unexpected error:', err);
  res.status(500).json({
    detail:
      'Something went wrong inside Traitscope. Nothing was changed; please try again, and report it if it persists.',
  });
};
