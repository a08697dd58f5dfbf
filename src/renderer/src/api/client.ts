/**
 * The typed HTTP client of the Traitscope API, driven by the route table
 * (src/shared/routes): an operation is called by its operationId, with its method, path,
 * parameter and body types taken from the table the service runs on. Every failure becomes
 * an ApiError whose message is a sentence for people: the service's own `detail`, or what
 * to do about a connection problem.
 */
import type {
  ApiClientInput,
  ClientTrait,
  CorsSettings,
  Detail,
  ProfileInput,
  ProfileTrait,
  TraitAssessment,
} from '../../../shared/api.js';
import { requestLine, type CallArgs, type ResponseBody } from '../../../shared/routes/call.js';
import type { OperationId } from '../../../shared/routes/index.js';
import { desktopBridge } from '../platform/bridge.js';
import { obtainSession, type Session } from './session.js';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

let session: Session | null = null;
let pendingSession: Promise<Session> | null = null;
/** Called when the token is no longer accepted and cannot be renewed. */
let onSignedOut: ((message: string) => void) | null = null;

export function setSignedOutHandler(handler: (message: string) => void): void {
  onSignedOut = handler;
}

export async function currentSession(): Promise<Session> {
  if (session) return session;
  pendingSession ??= obtainSession().finally(() => (pendingSession = null));
  session = await pendingSession;
  return session;
}

function fallbackMessage(status: number): string {
  if (status === 401) return 'Your session has ended. Reopen Traitscope to sign in again.';
  if (status === 403) return 'This session is not allowed to do that.';
  if (status === 404) return 'That item no longer exists. It may have been deleted.';
  if (status >= 500) return 'Something went wrong inside Traitscope. Please try again.';
  return `The request failed (HTTP ${status}).`;
}

async function errorFrom(res: Response): Promise<ApiError> {
  let message = fallbackMessage(res.status);
  try {
    const body = (await res.json()) as Partial<Detail>;
    if (typeof body.detail === 'string' && body.detail) message = body.detail;
  } catch {
    // Not JSON: keep the general sentence.
  }
  return new ApiError(message, res.status);
}

/** Said in the words of where the UI runs: the desktop app, or a browser tab of `npm run serve`. */
export const OFFLINE_MESSAGE = desktopBridge()
  ? "Traitscope's background service stopped answering. Quit Traitscope and open it again; your profiles and results are safe."
  : "Traitscope's background service is not answering. If you started it with `npm run serve`, check that it is still running, then reload this page.";

async function send(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  retry = true,
): Promise<Response> {
  // With the session at hand the request leaves at once, before a render queued meanwhile.
  const s = session ?? (await currentSession());
  let res: Response;
  try {
    res = await fetch(`${s.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${s.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(OFFLINE_MESSAGE, 0);
  }
  if (res.status === 401) {
    if (retry && s.renewable) {
      session = null; // the desktop app hands out a fresh token
      return send(method, path, body, headers, false);
    }
    const err = await errorFrom(res);
    onSignedOut?.(
      s.renewable
        ? err.message
        : 'Your sign-in has expired. Open the sign-in link that `npm run serve` printed in the terminal again.',
    );
    throw err;
  }
  if (!res.ok && res.status !== 304) throw await errorFrom(res);
  return res;
}

/** Calls one operation of the route table and returns its success body. */
export async function call<Id extends OperationId>(id: Id, args: CallArgs<Id>): Promise<ResponseBody<Id>> {
  const { method, path } = requestLine(id, args);
  const res = await send(method, path, (args as { body?: unknown }).body);
  return (await res.json()) as ResponseBody<Id>;
}

/** A response body with the entity tag it came with. */
export interface Tagged<T> {
  tag: string | null;
  body: T;
}

/** An answer whose status and headers have arrived; `read` waits for its body. */
interface Answer<T> {
  read: () => Promise<Tagged<T>>;
}

/**
 * Reads an operation again, sending the entity tag of the copy held: when nothing changed
 * the service answers 304 without building or sending the body, and the copy held is returned.
 * Resolves as soon as the answer begins to arrive, so the caller can send its next request
 * while this body is still on its way.
 */
async function callAgain<Id extends OperationId, T>(
  id: Id,
  args: CallArgs<Id>,
  held: Tagged<T> | undefined,
): Promise<Answer<T>> {
  const { method, path } = requestLine(id, args);
  const res = await send(method, path, undefined, held?.tag ? { 'If-None-Match': held.tag } : {});
  if (res.status === 304) {
    if (!held) throw new ApiError(fallbackMessage(304), 304);
    return { read: () => Promise.resolve(held) };
  }
  const tag = res.headers.get('ETag');
  return { read: async () => ({ tag, body: (await res.json()) as T }) };
}

/** A profile-trait list item in the compact view: the trait named by its code (the UI holds the catalog). */
export type CompactProfileTrait = Omit<ProfileTrait, 'trait'> & { trait_code: string };

/** The calls the UI makes, by name. */
export const api = {
  listProfiles: () => call('listProfiles', {}),
  createProfile: (input: ProfileInput) => call('createProfile', { body: input }),
  updateProfile: (id: string, input: ProfileInput) => call('replaceProfile', { path: { profile_id: id }, body: input }),
  deleteProfile: (id: string): Promise<Detail> => call('deleteProfile', { path: { profile_id: id } }),
  genotype: (id: string) => call('getGenotypeMetadata', { path: { profile_id: id } }),
  uploadUrl: (id: string, contentType: 'text/plain' | 'application/zip') =>
    call('getUploadUrl', { path: { profile_id: id }, query: { 'content-type': contentType } }),
  /** Reads the stored file again, a VCF's unlisted sites as the person says (docs/file-formats.md). */
  processAgain: (id: string, variantsOnly: boolean) =>
    call('processGenotype', { path: { profile_id: id }, query: { variants_only: variantsOnly ? 'true' : 'false' } }),
  /** Reads a VCF of several people again at the profile's own sample. */
  readSample: (id: string, sample: string) => call('processGenotype', { path: { profile_id: id }, query: { sample } }),

  // The catalog in full (once per session); profile lists name traits by code, as the
  // embedded trait objects would be most of their megabytes (state/traits.ts joins them).
  clientTraits: () => call('listClientTraits', {}) as Promise<ClientTrait[]>,
  profileTraits: (id: string, held?: Tagged<CompactProfileTrait[]>) =>
    callAgain('listProfileTraits', { path: { profile_id: id }, query: { view: 'compact' } }, held),
  scoredTraits: (id: string, held?: Tagged<CompactProfileTrait[]>) =>
    callAgain('listProfileTraits', { path: { profile_id: id }, query: { score: '', view: 'compact' } }, held),
  computeTraits: (id: string, codes: string[]) =>
    call('computeTraits', { path: { profile_id: id }, body: codes }) as Promise<TraitAssessment[]>,
  assessment: (id: string, code: string): Promise<ProfileTrait> =>
    call('getTraitAssessment', { path: { profile_id: id, trait_code: code } }),
  computeTrait: (id: string, code: string): Promise<ProfileTrait> =>
    call('computeTrait', { path: { profile_id: id, trait_code: code } }),

  findings: (id: string) => call('getFindings', { path: { profile_id: id } }),
  pharmacogenes: (id: string) => call('getPharmacogenes', { path: { profile_id: id } }),
  /** Many rsIDs travel in the body; URLs stay short. */
  snps: (id: string, rsids: string[]) => call('lookupSnpsInBody', { path: { profile_id: id }, body: rsids }),

  appInfo: () => call('getAppInfo', {}),
  listClients: () => call('listApiClients', {}),
  createClient: (input: ApiClientInput) => call('createApiClient', { body: input }),
  revokeClient: (clientId: string, deleteData = false) =>
    call('revokeApiClient', { path: { client_id: clientId }, query: deleteData ? { delete_data: 'true' } : {} }).then(
      () => undefined,
    ),
  deleteAllData: () => call('deleteAllData', {}).then(() => undefined),
  corsSettings: (): Promise<CorsSettings> => call('getCorsSettings', {}),
  saveCorsSettings: (origins: string[]): Promise<CorsSettings> => call('updateCorsSettings', { body: { origins } }),
};
