/**
 * Conditional GET for large lists: the ETag is a hash of the body, and a request whose
 * If-None-Match holds it is answered 304 without the body. This saves the transfer (and
 * the client's parsing), not the server's work.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

export function sendJsonWithEtag(req: Request, res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  const tag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
  // Revalidate every time: the list changes when traits are computed or the catalog is updated.
  res.set({ ETag: tag, 'Cache-Control': 'private, no-cache' });
  const held = (req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (held.includes(tag.replace(/^W\//, '')) || held.includes('*')) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(text);
}
