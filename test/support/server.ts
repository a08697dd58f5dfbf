/**
 * Starts the real Traitscope service as a separate process (`serve --port 0`) on a fresh
 * temporary data folder, exactly as a user would: the bundled command line (out/main/cli.js,
 * built by the global set-up) on this Node. Also small HTTP helpers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'out', 'main', 'cli.js');

export interface TestServer {
  origin: string;
  api: string;
  port: number;
  dataDir: string;
  /** The service's process id (its CPU time is read from /proc for the per-file figures). */
  pid: number;
  /** Access token of the app's own client, from the printed one-time sign-in link. */
  appToken: string;
  output: () => string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or power cut would stop it; resolves once the process is gone. */
  kill(): Promise<void>;
}

/**
 * The environment of the processes the tests start (services, CLI runs): the tests' own,
 * without NODE_EXTRA_CA_CERTS. They make no TLS connections, and Node parses the bundle it
 * names at every start (about 0.05-0.1 s of CPU for a system's whole bundle).
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export function tempDir(prefix = 'traitscope-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export async function startServer(
  options: { dataDir?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: childEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const { port, code } = await new Promise<{ port: number; code: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${out}`));
    }, 60_000);
    const check = () => {
      const api = /http:\/\/127\.0\.0\.1:(\d+)\/api/.exec(out);
      const signin = /#signin=([A-Za-z0-9_-]+)/.exec(out);
      if (api && signin) {
        clearTimeout(timer);
        resolve({ port: Number(api[1]), code: signin[1] });
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  const origin = `http://127.0.0.1:${port}`;
  // A service that started but cannot be signed in to is not left running behind the failure.
  const signIn = await request(`${origin}/oauth/sign-in`, { method: 'POST', json: { code } }).catch((err: Error) => {
    child.kill('SIGKILL');
    throw err;
  });
  if (signIn.status !== 200) {
    child.kill('SIGKILL');
    throw new Error(`sign-in with the printed link failed: ${JSON.stringify(signIn.body)}`);
  }
  return {
    origin,
    api: `${origin}/api`,
    port,
    dataDir,
    pid: child.pid!,
    appToken: signIn.body.access_token as string,
    output: () => out,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // The grace period's timer is cleared once the process is gone: left pending, it kept
        // the process that stopped the service (vitest's main, for the shared one) alive 10 s.
        let grace: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((r) => (grace = setTimeout(r, 10_000)))]);
        clearTimeout(grace);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the CLI (`traitscope ...`) synchronously and returns its output and exit code. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    encoding: 'utf8',
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export interface Credentials {
  client_id: string;
  client_secret: string;
}

export function createClient(dataDir: string, name: string, extra: string[] = []): Credentials {
  const r = runCli(['clients', 'create', '--data-dir', dataDir, '--name', name, ...extra]);
  if (r.status !== 0) throw new Error(`clients create failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Credentials;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function request<T = any>(
  url: string,
  options: { method?: string; token?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: options.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export async function getToken(server: TestServer, creds: Credentials, scope?: string): Promise<string> {
  const r = await request(`${server.origin}/oauth/token`, {
    method: 'POST',
    json: {
      ...creds,
      audience: `${server.api}/profiles`,
      grant_type: 'client_credentials',
      ...(scope ? { scope } : {}),
    },
  });
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.access_token;
}

/** What a new client may do: its scopes and free traits (the API's ApiClientInput). */
export interface ClientOptions {
  scopes?: Array<'read:profiles' | 'write:profiles'>;
  free_traits?: 'default' | 'all' | 'none' | string[];
}

/**
 * A third-party tool's client, created as the desktop app's Settings create one
 * (POST /api/app/clients/ with the app's token): a request to the running service instead
 * of a `traitscope clients create` process per client (~0.5 s of CPU each). Tests of the
 * command itself use createClient.
 */
export async function newClient(
  server: Pick<TestServer, 'api' | 'appToken'>,
  name: string,
  options: ClientOptions = {},
): Promise<Credentials> {
  const r = await request(`${server.api}/app/clients/`, {
    method: 'POST',
    token: server.appToken,
    json: { name, ...options },
  });
  if (r.status !== 201) throw new Error(`creating the client failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { client_id: r.body.client_id, client_secret: r.body.client_secret };
}

/** A new client (newClient) and a token for it. */
export async function clientWithToken(
  server: TestServer,
  name: string,
  options: ClientOptions = {},
): Promise<{ creds: Credentials; token: string }> {
  const creds = await newClient(server, name, options);
  return { creds, token: await getToken(server, creds) };
}

/** Requests an upload URL and PUTs the bytes to it; returns the PUT reply. */
export async function upload(
  server: TestServer,
  token: string,
  profileId: string,
  bytes: Uint8Array | string,
  contentType = 'text/plain',
): Promise<Reply> {
  const u = await request(
    `${server.api}/profiles/${profileId}/genotype/upload/?content-type=${encodeURIComponent(contentType)}`,
    { token },
  );
  if (u.status !== 200) throw new Error(`upload URL failed: ${u.status} ${JSON.stringify(u.body)}`);
  return request(u.body.url, { method: 'PUT', body: bytes as BodyInit, headers: { 'content-type': contentType } });
}

/**
 * Calls `probe` every `intervalMs` until it returns something other than undefined, and
 * returns that; fails after `timeoutMs`, saying what never happened and what was last seen.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, intervalMs));
  }
}

/**
 * The genotype as GET …/genotype/ shows it once its processing has ended (processed or
 * failed): read, and when it has not ended yet, wait for the profile's next processing job
 * to end (done, failed or superseded) on the service's events and read again. The stream is
 * open before the first read, so no ending can slip between; the service records the
 * outcome before it announces it.
 */
export async function waitProcessed(
  server: Pick<TestServer, 'api'>,
  token: string,
  profileId: string,
  timeoutMs = 60_000,
): Promise<any> {
  const end = Date.now() + timeoutMs;
  const events = await openEvents(server, token);
  try {
    for (;;) {
      const r = await request(`${server.api}/profiles/${profileId}/genotype/`, { token });
      const status = r.body?.metadata?.status;
      if (status === 'processed' || status === 'failed') return r.body;
      const ended = (e: ServerEvent) =>
        e.event === 'job' &&
        e.data.profile_id === profileId &&
        e.data.kind === 'processing' &&
        ['done', 'failed', 'superseded'].includes(e.data.state);
      await events.next(ended, Math.max(1, end - Date.now())).catch((cause: unknown) => {
        throw new Error(`processing did not finish: ${JSON.stringify(r.body)}`, { cause });
      });
    }
  } finally {
    events.close();
  }
}

export interface ServerEvent {
  event: string;
  data: any;
}

export interface EventStream {
  /** Every event received so far, in order. */
  received: ServerEvent[];
  /**
   * The earliest event not yet returned by next() that matches, waiting for it when needed.
   * Several waits may run at once, for events in any order.
   */
  next(match: (e: ServerEvent) => boolean, timeoutMs?: number): Promise<ServerEvent>;
  close(): void;
}

/**
 * Opens GET /api/events with the token in the Authorization header and parses the stream
 * as it arrives. Resolves once the stream is live (its `ready` event).
 */
export async function openEvents(server: Pick<TestServer, 'api'>, token: string): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${server.api}/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`events stream: ${res.status} ${await res.text()}`);
  const received: ServerEvent[] = [];
  const taken = new Set<number>();
  const waiters = new Set<() => void>();
  let ended = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) received.push({ event, data: JSON.parse(data) });
          for (const wake of [...waiters]) wake();
        }
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
      for (const wake of [...waiters]) wake();
    }
  })();
  const stream: EventStream = {
    received,
    async next(match, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = received.findIndex((e, i) => !taken.has(i) && match(e));
        if (index >= 0) {
          taken.add(index);
          return received[index];
        }
        if (ended) throw new Error(`the events stream ended; received: ${JSON.stringify(received)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event in ${timeoutMs} ms; received: ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          const wake = () => (clearTimeout(timer), waiters.delete(wake), resolve());
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => controller.abort(),
  };
  await stream.next((e) => e.event === 'ready');
  return stream;
}

/** Creates a profile (POST /api/profiles/) for the token's client and returns its id. */
export async function newProfile(server: Pick<TestServer, 'api'>, token: string, json: object = {}): Promise<string> {
  const r = await request(`${server.api}/profiles/`, { method: 'POST', token, json });
  if (typeof r.body?.id !== 'string')
    throw new Error(`creating a profile failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/** The event that ends the profile's next job of this kind (done or failed). */
export function jobEnded(
  stream: EventStream,
  profileId: string,
  kind: 'processing' | 'scoring' | 'import',
): Promise<ServerEvent> {
  return stream.next(
    (e) =>
      e.event === 'job' &&
      e.data.profile_id === profileId &&
      e.data.kind === kind &&
      ['done', 'failed'].includes(e.data.state),
  );
}

/**
 * Reads the profile's scored trait list until it satisfies `done`: read, and when it does
 * not yet, wait for the service's next `traits` event for the profile (the stream is open
 * before the first read, so no change can slip between).
 */
export async function traitsWhen(
  server: Pick<TestServer, 'api'>,
  token: string,
  profileId: string,
  done: (list: any[]) => boolean,
  query = '?score',
): Promise<any[]> {
  const events = await openEvents(server, token);
  try {
    for (;;) {
      const list = (await request(`${server.api}/profiles/${profileId}/traits/${query}`, { token })).body;
      if (done(list)) return list;
      await events.next((e) => e.event === 'traits' && e.data.profile_id === profileId);
    }
  } finally {
    events.close();
  }
}
