/**
 * Requests Node's HTTP parser refuses before express sees them (a request line or headers
 * over the 16 KB limit, a malformed request) get the API's `{detail}` body instead of
 * Node's empty one: a tool learns what was wrong and what to do instead. Like Node's own
 * handler, it answers only when no response is already on its way on that connection.
 */
import { maxHeaderSize, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorCode } from './errors.js';
import { confirmLateHeaders } from './slow-clients.js';

const REPLIES: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'The request line or headers are larger than 16 KB. For many rsIDs use POST /api/profiles/{profile_id}/genotype/snps/ with a JSON list; otherwise send shorter headers.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not received in time. Send it again.'],
};

/** Which origins get CORS headers on these answers (the service's CORS policy, http/cors.ts). */
export interface ClientErrorCors {
  allows: (origin: string) => boolean;
  /** Whether any origin is listed now: only then are connections' request heads kept. */
  listsAny: () => boolean;
}

const NO_CORS: ClientErrorCors = { allows: () => false, listsAny: () => false };

/**
 * A listed browser tool gets the CORS headers on these answers too, so it sees the 431 and
 * its detail instead of an opaque network error. Node's parser reports only the chunk it
 * failed in (`rawPacket`), and the Origin header may have arrived in an earlier one; while
 * any origin is listed, each connection therefore keeps its last received bytes (requestHeads)
 * and the Origin is read from all of them.
 */
export function replyToClientErrors(server: Server, cors: ClientErrorCors = NO_CORS): void {
  keepRequestHeads(server, cors.listsAny);
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const headers = corsHeaders(receivedHead(socket, err.rawPacket), cors.allows);
    // Node's headers deadline, confirmed once the service has read what already arrived.
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') confirmLateHeaders(socket, () => reply(err, socket, headers));
    else reply(err, socket, headers);
  });
}

/** A connection's latest received bytes: the last `window` bytes (or more) before its newest chunk, and that chunk. */
interface ReceivedBytes {
  chunks: Buffer[];
  bytes: number;
}

const requestHeads = new WeakMap<Socket, ReceivedBytes>();

/**
 * Keeps, per connection, references to the chunks that may hold the head of the request
 * being received: Node refuses a head once it passes maxHeaderSize, so everything of the
 * refused head lies within that many bytes before the failing chunk (plus the chunk itself).
 * A 'data' listener makes Node hand the connection's bytes to its parser from JavaScript
 * instead of reading them natively (Node's "unconsume"): done only while an origin is listed.
 */
function keepRequestHeads(server: Server, listsAny: () => boolean): void {
  // The process-wide limit (--max-http-header-size): the service sets no limit of its own.
  const window = maxHeaderSize + 1024;
  server.on('connection', (socket: Socket) => {
    if (!listsAny()) return;
    const kept: ReceivedBytes = { chunks: [], bytes: 0 };
    requestHeads.set(socket, kept);
    // Before Node's own listener, so the chunk its parser fails on is already kept.
    socket.prependListener('data', (chunk: Buffer) => {
      // The oldest chunk goes once the others before this one cover the window without it.
      while (kept.chunks.length > 0 && kept.bytes - kept.chunks[0].length >= window)
        kept.bytes -= kept.chunks.shift()!.length;
      kept.chunks.push(chunk);
      kept.bytes += chunk.length;
    });
  });
}

/** What arrived of the refused request: the kept bytes, or Node's failing chunk alone. */
function receivedHead(socket: Socket, rawPacket: Buffer | undefined): Buffer | undefined {
  const kept = requestHeads.get(socket);
  return kept && kept.chunks.length > 0 ? Buffer.concat(kept.chunks) : rawPacket;
}

const ORIGIN_LINE = /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*\r\n/gi;

/** The last Origin header in what arrived (the refused request comes after any earlier one). */
function corsHeaders(received: Buffer | undefined, allows: (origin: string) => boolean): string {
  if (!received) return '';
  const origins = [...received.toString('latin1').matchAll(ORIGIN_LINE)];
  const origin = origins.at(-1)?.[1];
  if (!origin || !allows(origin)) return '';
  return `Access-Control-Allow-Origin: ${origin}\r\nVary: Origin\r\n`;
}

function reply(err: NodeJS.ErrnoException, socket: Socket, cors: string): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const [status, reason, detail] = REPLIES[err.code ?? ''] ?? [
      400,
      'Bad Request',
      `The request is not valid HTTP (${err.code ?? err.message}).`,
    ];
    const body = JSON.stringify({ detail, code: errorCode(status) });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n${cors}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
