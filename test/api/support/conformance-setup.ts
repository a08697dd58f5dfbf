/**
 * Vitest setup (every test file): wraps fetch so that every exchange with the service's
 * /api, /oauth and /storage is checked against the OpenAPI document. A violation fails the
 * call at once (and the test after it, should the test catch the error).
 *
 * The checker (the OpenAPI document and its compiled schemas, about 0.3 s of CPU before the
 * schemas a file's exchanges need are compiled) loads on the first exchange with the service,
 * so files that never call it do not pay for it.
 * Vitest runs this file again before each test file in a worker that is reused
 * (isolate: false): fetch is wrapped once per process, and each run hooks its file's afterEach.
 */
import { afterEach } from 'vitest';
import { violations } from './violations.js';

type Checker = typeof import('./conformance.js');
let checker: Promise<Checker> | undefined;
const loadChecker = () => (checker ??= import('./conformance.js'));
const isLocal = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost';
const plainFetch = globalThis.fetch;

function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  return undefined; // binary uploads are not checked against a schema
}

async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : undefined;
  const url = new URL(input instanceof Request ? input.url : input);
  if (!isLocal(url)) return plainFetch(input, init);
  // openapi-fetch sends a Request object: read its body before it is consumed.
  const requestBody = request ? await request.clone().text() : bodyText(init?.body);
  const [res, { conformance, isApiUrl }] = await Promise.all([plainFetch(input, init), loadChecker()]);
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  if (!isApiUrl(url) || method === 'OPTIONS' || method === 'HEAD') return res;
  const headers = new Headers(init?.headers ?? request?.headers);
  const problems = conformance().problems({
    method,
    url,
    requestType: headers.get('content-type') ?? undefined,
    requestBody: requestBody === '' && request ? undefined : requestBody,
    status: res.status,
    responseType: res.headers.get('content-type') ?? '',
    // A Server-Sent Events stream does not end: its type and status are checked, not its body.
    responseText: (res.headers.get('content-type') ?? '').startsWith('text/event-stream')
      ? ''
      : await res.clone().text(),
    responseHeaders: res.headers,
  });
  if (problems.length > 0) {
    violations.push(...problems);
    throw new Error(`The response does not conform to the OpenAPI document:\n${problems.join('\n')}`);
  }
  return res;
}

if (!(globalThis.fetch as { conformanceChecked?: true }).conformanceChecked)
  globalThis.fetch = Object.assign(checkedFetch, { conformanceChecked: true as const });

afterEach(() => {
  if (violations.length === 0) return;
  const found = violations.splice(0);
  throw new Error(`Responses that do not conform to the OpenAPI document:\n${found.join('\n')}`);
});
