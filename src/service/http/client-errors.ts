/**
 * Requests Node's HTTP parser refuses before express sees them (a request line or headers
 * over the 16 KB limit, a malformed request) get the API's `{detail}` body instead of
 * Node's empty one: a tool learns what was wrong and what to do instead.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

function reply(socket: Duplex, status: number, reason: string, detail: string): void {
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function replyToClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      return reply(
        socket,
        431,
        'Request Header Fields Too Large',
        'The request line or headers are larger than 16 KB. For many rsIDs use POST /api/profiles/{profile_id}/genotype/snps/ with a JSON list; otherwise send shorter headers.',
      );
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return reply(socket, 408, 'Request Timeout', 'The request was not received in time. Send it again.');
    reply(socket, 400, 'Bad Request', `The request is not valid HTTP (${err.code ?? err.message}).`);
  });
}
