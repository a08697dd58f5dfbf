/**
 * GET /api/events: Server-Sent Events of the calling client's jobs and results
 * (docs/api.md, "Events"), so progress is pushed rather than polled.
 *
 * Authenticated like the rest of /api, by `Authorization: Bearer` (fetch-based readers,
 * curl, SSE libraries that send headers). Browsers' EventSource cannot send headers: it
 * opens the URL that GET /api/events/url returns, whose `ticket` works once, within 60 s,
 * for that client only. The access token itself never appears in a URL, and the service
 * logs no URLs. A stream ends after an hour, or at the next heartbeat after its client
 * was revoked; readers connect again (and so authenticate again).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { getClient } from '../../auth/clients.js';
import { requireToken, clientOf } from '../auth.js';
import { origin, type ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';

const TICKET_TTL_MS = 60_000;
const HEARTBEAT_MS = 15_000;
const STREAM_MAX_MS = 60 * 60_000;

/** Single-use tickets for EventSource, kept in memory and only as hashes. */
function streamTickets() {
  const tickets = new Map<string, { clientId: string; expires: number }>();
  const hash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');
  return {
    issue(clientId: string): string {
      const now = Date.now();
      for (const [key, t] of tickets) if (t.expires <= now) tickets.delete(key);
      const ticket = randomBytes(24).toString('base64url');
      tickets.set(hash(ticket), { clientId, expires: now + TICKET_TTL_MS });
      return ticket;
    },
    /** The client the ticket was issued to, once; undefined when unknown, used or expired. */
    redeem(ticket: string): string | undefined {
      const key = hash(ticket);
      const found = tickets.get(key);
      tickets.delete(key);
      return found && found.expires > Date.now() ? found.clientId : undefined;
    },
  };
}

export function eventRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');
  const tickets = streamTickets();
  // The events tell of jobs and results: a write-only token does not get them.
  const authenticate = requireToken(ctx.db, ['read:profiles']);

  on('getEventsUrl', (_req, res) => {
    const ticket = tickets.issue(clientOf(res).id);
    res
      .set('Cache-Control', 'no-store')
      .json({ url: `${origin(ctx)}/api/events?ticket=${ticket}`, expires_in: TICKET_TTL_MS / 1000 });
  });

  // No token check by the table: the stream takes a token or a ticket.
  on('streamEvents', (req, res) => {
    const ticket = req.query.ticket;
    if (typeof ticket !== 'string') return authenticate(req, res, () => stream(ctx, req, res));
    const clientId = tickets.redeem(ticket);
    const client = clientId ? getClient(ctx.db, clientId) : undefined;
    if (!client || client.revokedAt) {
      throw new HttpError(
        401,
        'This events URL was already used or has expired (each works once, within 60 s). Get a new one with GET /api/events/url.',
        {
          'WWW-Authenticate': 'Bearer realm="traitscope", error="invalid_token"',
        },
      );
    }
    res.locals.client = client;
    stream(ctx, req, res);
  });

  return router;
}

function stream(ctx: ServiceContext, req: Request, res: Response): void {
  const client = clientOf(res);
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
  const send = (event: string, data: unknown) => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  // How long a reader waits before connecting again, then the jobs already under way.
  res.write('retry: 2000\n\n');
  for (const job of ctx.processor.activeJobs()) if (job.clientId === client.id) send('job', job.data);
  send('ready', {});
  const stop = ctx.processor.events.subscribe((event) => {
    if (event.clientId === client.id) send(event.type, event.data);
  });
  const opened = Date.now();
  const heartbeat = setInterval(() => {
    const current = getClient(ctx.db, client.id);
    if (!current || current.revokedAt || Date.now() - opened > STREAM_MAX_MS) return void res.end();
    res.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const close = () => {
    stop();
    clearInterval(heartbeat);
  };
  req.once('close', close);
  res.once('close', close);
}
