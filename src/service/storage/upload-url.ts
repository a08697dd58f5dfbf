/**
 * Time-limited upload URLs: the storage address of a profile's genotype, signed with an
 * HMAC over profile, expiry and content type, so it cannot be redirected to another
 * profile, extended, or used with another content type.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UploadGrant {
  profileId: string;
  /** Epoch seconds. */
  expires: number;
  contentType: string;
}

function sign(key: Buffer, grant: UploadGrant): string {
  return createHmac('sha256', key).update(`${grant.profileId}\n${grant.expires}\n${grant.contentType}`).digest('base64url');
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
  return `${origin}${uploadPath(grant.profileId)}?${query}`;
}

export type UploadCheck = { ok: true; grant: UploadGrant } | { ok: false; reason: string };

/** Checks a storage request's query against its path; `now` in epoch seconds. */
export function checkUploadUrl(key: Buffer, profileId: string, query: Record<string, unknown>, now: number): UploadCheck {
  const { expires, content_type: contentType, signature } = query;
  if (typeof expires !== 'string' || typeof contentType !== 'string' || typeof signature !== 'string') {
    return { ok: false, reason: 'This upload URL is incomplete (expires, content_type and signature are required). Request a new one from GET /api/profiles/{profile_id}/genotype/upload/.' };
  }
  const grant: UploadGrant = { profileId, expires: Number(expires), contentType };
  const expected = Buffer.from(sign(key, grant));
  const given = Buffer.from(signature);
  if (!Number.isInteger(grant.expires) || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'This upload URL is not valid (its signature does not match). Use the URL exactly as returned by GET /api/profiles/{profile_id}/genotype/upload/.' };
  }
  if (grant.expires < now) {
    return { ok: false, reason: 'This upload URL has expired (they are valid for a limited time). Request a new one from GET /api/profiles/{profile_id}/genotype/upload/ and upload again.' };
  }
  return { ok: true, grant };
}
