/**
 * The HTTP server, with limits that keep slow or stuck clients from holding sockets,
 * memory and partial files:
 * - a connection must start a request, and the request's headers must be complete, within
 *   `headersTimeoutSeconds` (of the connection opening, then of the request's first byte;
 *   Node checks every few seconds, and answers 408);
 * - a request body must keep arriving, at least 1 KiB per `bodyIdleSeconds`, until it is
 *   complete; otherwise the connection is closed (the upload route then removes its
 *   partial file). Time the service itself spends not reading (a slow disk) does not count;
 * - the whole request must be received within Node's default 300 s;
 * - an idle keep-alive connection is closed after 65 s, longer than clients' own keep-alive
 *   idle time, so a reused connection is never closed under a request already on its way.
 *
 * Time the service spends busy does not count against a client either: timers run before
 * the service reads what arrived meanwhile, so after a long synchronous task, or on a
 * loaded machine, a deadline can fire on bytes that are already waiting. Each verdict is
 * therefore confirmed after the service has read its input (afterPendingInput).
 */
import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface SocketLimits {
  headersTimeoutSeconds: number;
  bodyIdleSeconds: number;
}

/** A body must bring at least this many bytes per idle window to count as progressing. */
const MIN_PROGRESS_BYTES = 1024;
const KEEP_ALIVE_MS = 65_000;

/** Requests whose headers were received, per connection: a late verdict checks it again. */
const requestsStarted = new WeakMap<Socket, number>();

/** An express application: the prototypes it gives every request and response. */
interface WithPrototypes {
  request?: object;
  response?: object;
}

export function createHttpServer(app: RequestListener & WithPrototypes, limits: SocketLimits): Server {
  const headersTimeout = Math.round(limits.headersTimeoutSeconds * 1000);
  const server = createServer(
    {
      IncomingMessage: app.request && bornWith(IncomingMessage, app.request),
      ServerResponse: app.response && bornWith<typeof ServerResponse>(ServerResponse, app.response),
      headersTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.round(headersTimeout / 4))),
    },
    app,
  );
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const bodyIdleMs = Math.round(limits.bodyIdleSeconds * 1000);
  server.on('request', (req: IncomingMessage) => {
    requestsStarted.set(req.socket, (requestsStarted.get(req.socket) ?? 0) + 1);
    watchBody(req, bodyIdleMs);
  });
  return server;
}

/**
 * A constructor whose instances are born with `prototype`, which extends `base`'s. Express
 * gives every request and response its own prototypes (Object.setPrototypeOf in
 * app.handle); an object already born with them is left as it is. Switching the prototype
 * of each one made V8 keep them through young-generation collections, so every request's
 * garbage was copied and promoted: 10-30 ms pauses of the event loop, several a second
 * under load. Node's IncomingMessage and ServerResponse are plain functions, extended the
 * way Node extends them (base.call(this)): building through Reflect.construct instead was
 * as slow as switching prototypes. Should a Node make them classes, Node's own are kept.
 */
function bornWith<C extends new (...args: never[]) => object>(base: C, prototype: object): C | undefined {
  if (Function.prototype.toString.call(base).startsWith('class')) return undefined;
  function Born(this: object, ...args: unknown[]): void {
    (base as unknown as (...a: unknown[]) => void).apply(this, args);
  }
  Born.prototype = prototype;
  return Born as unknown as C;
}

/**
 * Runs `late` when Node's headers deadline for `socket` holds once the service has read
 * what is waiting on it: headers that arrived in time but were not yet read (the service
 * was busy) start their request instead.
 */
export function confirmLateHeaders(socket: Socket, late: () => void): void {
  const started = requestsStarted.get(socket) ?? 0;
  afterPendingInput(() => {
    if (!socket.destroyed && (requestsStarted.get(socket) ?? 0) === started) late();
  });
}

/**
 * Calls `fn` after the event loop's next poll for input: a timer that fired late, after the
 * service was busy, sees the bytes that arrived meanwhile before it judges a client.
 */
function afterPendingInput(fn: () => void): void {
  setImmediate(fn);
}

/** Whether a body follows the headers (RFC 9112 6.3: only with Transfer-Encoding or a non-zero Content-Length). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Closes the connection when the request body stops arriving before it is complete. */
function watchBody(req: IncomingMessage, idleMs: number): void {
  if (req.complete || !hasBody(req)) return;
  const socket = req.socket;
  let mark = socket.bytesRead;
  let markedAt = Date.now();
  const check = (confirming: boolean): void => {
    if (req.complete || socket.destroyed) return stop();
    // Paused by the service (backpressure from the disk): not the client's stall.
    if (req.readableFlowing === false || socket.bytesRead - mark >= MIN_PROGRESS_BYTES) {
      mark = socket.bytesRead;
      markedAt = Date.now();
      return;
    }
    if (Date.now() - markedAt < idleMs) return;
    if (!confirming) return afterPendingInput(() => check(true));
    stop();
    socket.destroy();
  };
  const timer = setInterval(() => check(false), Math.max(50, Math.round(idleMs / 4)));
  timer.unref();
  const stop = () => clearInterval(timer);
  req.once('end', stop);
  req.once('close', stop);
}
