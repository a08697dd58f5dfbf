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

export function replyToClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Node's headers deadline, confirmed once the service has read what already arrived.
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') confirmLateHeaders(socket, () => reply(err, socket));
    else reply(err, socket);
  });
}

function reply(err: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const [status, reason, detail] = REPLIES[err.code ?? ''] ?? [
      400,
      'Bad Request',
      `The request is not valid HTTP (${err.code ?? err.message}).`,
    ];
    const body = JSON.stringify({ detail, code: errorCode(status) });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
