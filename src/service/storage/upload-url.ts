/**
 * Time-limited upload URLs: the storage address of a profile's genotype, signed with an
 * HMAC over profile, expiry and content type, so it cannot be redirected to another
 * profile, extended, or used with another content type. A URL is accepted only exactly as
 * issued: no case, whitespace, leading-zero or repeated-parameter variants.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UPLOAD_CONTENT_TYPES } from '../../shared/api.js';

export interface UploadGrant {
  profileId: string;
  /** Epoch seconds. */
  expires: number;
  contentType: string;
}

function sign(key: Buffer, grant: UploadGrant): string {
  return createHmac('sha256', key)
    .update(`${grant.profileId}\n${grant.expires}\n${grant.contentType}`)
    .digest('base64url');
}

export function uploadPath(profileId: string): string {
  return `/storage/genotypes/${profileId}`;
}

export function makeUploadUrl(origin: string, key: Buffer, grant: UploadGrant): string {
  const query = new URLSearchParams({
    expires: String(grant.expires),
    content_type: grant.contentType,
    signature: sign(key, grant),
  });
  return `${origin}${uploadPath(grant.profileId)}?${query.toString()}`;
}

export type UploadCheck = { ok: true; grant: UploadGrant } | { ok: false; reason: string };

const PROFILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EPOCH_SECONDS = /^[1-9][0-9]{0,11}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

const REQUEST_NEW = 'Request a new one from GET /api/profiles/{profile_id}/genotype/upload/';

/** Checks a storage request's path and query; `now` in epoch seconds. */
export function checkUploadUrl(
  key: Buffer,
  profileId: string,
  query: Record<string, unknown>,
  now: number,
): UploadCheck {
  const { expires, content_type: contentType, signature } = query;
  if (typeof expires !== 'string' || typeof contentType !== 'string' || typeof signature !== 'string') {
    return {
      ok: false,
      reason: `This upload URL is incomplete or altered (expires, content_type and signature must each appear once). ${REQUEST_NEW}.`,
    };
  }
  const wellFormed =
    PROFILE_ID.test(profileId) &&
    EPOCH_SECONDS.test(expires) &&
    SIGNATURE.test(signature) &&
    (UPLOAD_CONTENT_TYPES as readonly string[]).includes(contentType);
  const grant: UploadGrant = { profileId, expires: Number(expires), contentType };
  const expected = Buffer.from(sign(key, grant));
  const given = Buffer.from(signature);
  if (!wellFormed || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return {
      ok: false,
      reason: `This upload URL is not valid (its signature does not match). Use the URL exactly as returned, or ${REQUEST_NEW.replace('Request', 'request')}.`,
    };
  }
  if (grant.expires < now) {
    return {
      ok: false,
      reason: `This upload URL has expired (they are valid for a limited time). ${REQUEST_NEW} and upload again.`,
    };
  }
  return { ok: true, grant };
}
