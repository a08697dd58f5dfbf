/**
 * Every non-2xx response of /api and /storage has the body {"detail": "...", "code": "..."}:
 * what went wrong and how to fix it, for people, and a stable machine-readable code (by
 * default the status's, ERROR_CODES; a route may name a more specific one). Route code
 * throws HttpError; the handler below renders it.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { QueueFullError } from '../processing/admission.js';
import { allowedMethods } from './allowed-methods.js';

/** The machine-readable `code` of an error body, by status. */
export const ERROR_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'too_many_requests',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'busy',
};

export const errorCode = (status: number): string =>
  ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    readonly code: string = errorCode(status),
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
    res.status(err.status).set(err.headers).json({ detail: err.detail, code: err.code });
    return;
  }
  if (err instanceof QueueFullError) {
    res
      .status(503)
      .set('Retry-After', String(err.retryAfterSeconds))
      .json({ detail: err.message, code: errorCode(503) });
    return;
  }
  // body-parser errors carry a status and a type.
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    res.status(400).json({
      detail: `The request body is not valid JSON (${(err as Error).message}). Send a JSON document.`,
      code: 'invalid_json',
    });
    return;
  }
  if (type === 'entity.too.large') {
    res.status(413).json({ detail: 'The request body is too large for this operation.', code: errorCode(413) });
    return;
  }
  const status = (err as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json({ detail: (err as Error).message, code: errorCode(status) });
    return;
  }
  console.error('[traitscope] unexpected error:', err);
  res.status(500).json({
    detail:
      'Something went wrong inside Traitscope. Nothing was changed; please try again, and report it if it persists.',
    code: errorCode(500),
  });
};
