/**
 * The HTTP server, with limits that keep slow or stuck clients from holding sockets,
 * memory and partial files:
 * - headers must arrive within `headersTimeoutSeconds` (Node checks every few seconds), and
 *   a new connection must start a request as soon;
 * - a request body must keep arriving, at least 1 KiB per `bodyIdleSeconds`, until it is
 *   complete; otherwise the connection is closed (the upload route then removes its
 *   partial file). Time the service itself spends not reading (a slow disk) does not count;
 * - the whole request must be received within Node's default 300 s;
 * - an idle keep-alive connection is closed after 65 s, longer than clients' own keep-alive
 *   idle time, so a reused connection is never closed under a request already on its way.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface SocketLimits {
  headersTimeoutSeconds: number;
  bodyIdleSeconds: number;
}

/** A body must bring at least this many bytes per idle window to count as progressing. */
const MIN_PROGRESS_BYTES = 1024;
const KEEP_ALIVE_MS = 65_000;

export function createHttpServer(app: RequestListener, limits: SocketLimits): Server {
  const headersTimeout = Math.round(limits.headersTimeoutSeconds * 1000);
  const server = createServer(
    {
      headersTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(5000, Math.round(headersTimeout / 4))),
    },
    app,
  );
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A connection that sends nothing at all is not covered by headersTimeout: give it as long.
  server.on('connection', (socket: Socket) => socket.setTimeout(headersTimeout));
  const bodyIdleMs = Math.round(limits.bodyIdleSeconds * 1000);
  server.on('request', (req: IncomingMessage) => {
    req.socket.setTimeout(0); // a request is under way: the body watch and Node's own limits take over
    watchBody(req, bodyIdleMs);
  });
  return server;
}

/** Closes the connection when the request body stops arriving before it is complete. */
function watchBody(req: IncomingMessage, idleMs: number): void {
  if (req.complete) return;
  const socket = req.socket;
  let mark = socket.bytesRead;
  let markedAt = Date.now();
  const timer = setInterval(
    () => {
      if (req.complete || socket.destroyed) return stop();
      const now = Date.now();
      // Paused by the service (backpressure from the disk): not the client's stall.
      if (req.readableFlowing === false || socket.bytesRead - mark >= MIN_PROGRESS_BYTES) {
        mark = socket.bytesRead;
        markedAt = now;
        return;
      }
      if (now - markedAt >= idleMs) {
        stop();
        socket.destroy();
      }
    },
    Math.max(50, Math.round(idleMs / 4)),
  );
  timer.unref();
  const stop = () => clearInterval(timer);
  req.once('end', stop);
  req.once('close', stop);
}
