/**
 * DNS-rebinding guard: a web page on another origin can make the browser send requests to
 * 127.0.0.1 under its own host name. Only requests addressed to this service's own
 * address (127.0.0.1:port or localhost:port) are served.
 */
import type { RequestHandler } from 'express';

export function hostGuard(getPort: () => number): RequestHandler {
  return (req, res, next) => {
    const host = (req.headers.host ?? '').toLowerCase();
    const port = getPort();
    if (host === `127.0.0.1:${port}` || host === `localhost:${port}`) return next();
    res.status(403).json({
      detail: `Requests must be addressed to http://127.0.0.1:${port} (Host header "${host}" refused).`,
      code: 'wrong_host',
    });
  };
}
