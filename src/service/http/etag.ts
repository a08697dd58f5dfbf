/**
 * Conditional GET for large lists: the ETag is a hash of the body, and a request whose
 * If-None-Match holds it is answered 304 without the body. A body that stays the same from
 * request to request can be tagged once and kept as bytes (GET /api/traits/ does).
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** If-None-Match holds the tag (or `*`): a comma-separated list, weak tags compared weakly. */
export function ifNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const wanted = tag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const candidate = t.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === wanted;
  });
}

/** A JSON body as the bytes sent, with its entity tag. */
export interface TaggedJson {
  body: Buffer;
  tag: string;
}

export function tagJson(text: string): TaggedJson {
  const body = Buffer.from(text);
  return { body, tag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
}

export function sendTaggedJson(req: Request, res: Response, { body, tag }: TaggedJson): void {
  // Revalidate every time: the list changes when traits are computed or the catalog is updated.
  res.set({ ETag: tag, 'Cache-Control': 'private, no-cache' });
  if (ifNoneMatch(req.headers['if-none-match'], tag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(body);
}
