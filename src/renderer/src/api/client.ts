/**
 * The typed HTTP client of the Traitscope API. Every failure becomes an ApiError whose
 * message is a sentence for people: the service's own `detail`, or what to do about a
 * connection problem.
 */
import type {
  ApiClient,
  ApiClientInput,
  AppInfo,
  ClientTrait,
  CreatedApiClient,
  Detail,
  GenotypeMetadata,
  Profile,
  ProfileInput,
  ProfileTrait,
} from '../../../shared/api.js';
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

export const OFFLINE_MESSAGE =
  "Traitscope's background service is not answering. If you started it with `npm run serve`, check that it is still running, then reload this page.";

async function send(method: string, path: string, body: unknown, retry = true): Promise<Response> {
  const s = await currentSession();
  let res: Response;
  try {
    res = await fetch(`${s.baseUrl}/api${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${s.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(OFFLINE_MESSAGE, 0);
  }
  if (res.status === 401) {
    if (retry && s.renewable) {
      session = null; // the desktop app hands out a fresh token
      return send(method, path, body, false);
    }
    const err = await errorFrom(res);
    onSignedOut?.(s.renewable ? err.message : 'Your sign-in has expired. Open the sign-in link that `npm run serve` printed in the terminal again.');
    throw err;
  }
  if (!res.ok) throw await errorFrom(res);
  return res;
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await (await send(method, path, body)).json()) as T;
}

const enc = encodeURIComponent;

export const api = {
  listProfiles: () => json<Profile[]>('GET', '/profiles/'),
  createProfile: (input: ProfileInput) => json<Profile>('POST', '/profiles/', input),
  updateProfile: (id: string, input: ProfileInput) => json<Profile>('PUT', `/profiles/${enc(id)}/`, input),
  deleteProfile: (id: string) => json<Detail>('DELETE', `/profiles/${enc(id)}/`),
  genotype: (id: string) => json<GenotypeMetadata>('GET', `/profiles/${enc(id)}/genotype/`),
  uploadUrl: (id: string, contentType: string) =>
    json<{ url: string }>('GET', `/profiles/${enc(id)}/genotype/upload/?content-type=${enc(contentType)}`),

  clientTraits: () => json<ClientTrait[]>('GET', '/traits/'),
  profileTraits: (id: string) => json<ProfileTrait[]>('GET', `/profiles/${enc(id)}/traits/`),
  scoredTraits: (id: string) => json<ProfileTrait[]>('GET', `/profiles/${enc(id)}/traits/?score`),
  computeTraits: (id: string, codes: string[]) => json<ProfileTrait[]>('POST', `/profiles/${enc(id)}/traits/`, codes),
  assessment: (id: string, code: string) => json<ProfileTrait>('GET', `/profiles/${enc(id)}/traits/${enc(code)}/`),
  computeTrait: (id: string, code: string) => json<ProfileTrait>('PUT', `/profiles/${enc(id)}/traits/${enc(code)}/`),

  appInfo: () => json<AppInfo>('GET', '/app/info'),
  listClients: () => json<ApiClient[]>('GET', '/app/clients/'),
  createClient: (input: ApiClientInput) => json<CreatedApiClient>('POST', '/app/clients/', input),
  revokeClient: (clientId: string, deleteData = false) =>
    send('DELETE', `/app/clients/${enc(clientId)}/${deleteData ? '?delete_data=true' : ''}`, undefined).then(() => undefined),
  deleteAllData: () => send('DELETE', '/app/data/', undefined).then(() => undefined),
};
