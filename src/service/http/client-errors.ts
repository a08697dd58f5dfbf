/**
 * Requests Node's HTTP parser refuses before express sees them (a request line or headers
 * over the 16 KB limit, a malformed request) get the API's `{detail}` body instead of
 * Node's empty one: a tool learns what was wrong and what to do instead. Like Node's own
 * handler, it answers only when no response is already on its way on that connection.
 */
import type { Server } from 'node:http';
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

/**
 * `allows` says whether an origin is listed for CORS: a listed browser tool gets the CORS
 * headers on these answers too (the Origin header read from the bytes that arrived), so it
 * sees the 431 and its detail instead of an opaque network error.
 */
export function replyToClientErrors(server: Server, allows: (origin: string) => boolean = () => false): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const cors = corsHeaders(err.rawPacket, allows);
    // Node's headers deadline, confirmed once the service has read what already arrived.
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') confirmLateHeaders(socket, () => reply(err, socket, cors));
    else reply(err, socket, cors);
  });
}

const ORIGIN_LINE = /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*\r\n/i;

function corsHeaders(raw: Buffer | undefined, allows: (origin: string) => boolean): string {
  if (!raw) return '';
  const origin = ORIGIN_LINE.exec(raw.toString('latin1'))?.[1];
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
