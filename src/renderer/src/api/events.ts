/**
 * The service's pushed events (GET /api/events, Server-Sent Events): job progress and
 * result changes, so the UI shows results as soon as they exist instead of polling.
 *
 * Read with fetch rather than EventSource, so the access token travels in the
 * Authorization header like every other request and never in a URL. One connection is
 * shared by every listener; it reconnects by itself (with the current session) when it drops.
 */
import type { JobEvent, TraitsEvent } from '../../../shared/events.js';
import { currentSession } from './client.js';

export type ServiceEvent = { type: 'job'; data: JobEvent } | { type: 'traits'; data: TraitsEvent } | { type: 'ready' };

type Listener = (event: ServiceEvent) => void;

const listeners = new Set<Listener>();
let connected = false;
let running = false;

/** Calls the listener with every event from now on; returns the function that stops it. */
export function subscribeEvents(listener: Listener): () => void {
  listeners.add(listener);
  if (!running) void connectForever();
  return () => listeners.delete(listener);
}

/** True while the stream is open: events will arrive (otherwise fall back to asking). */
export function eventsConnected(): boolean {
  return connected;
}

function dispatch(event: ServiceEvent): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (err) {
      console.error('event listener failed', err);
    }
  }
}

async function connectForever(): Promise<void> {
  running = true;
  let delay = 1000;
  while (listeners.size > 0) {
    try {
      await readStream(() => (delay = 1000));
    } catch {
      // Not signed in yet, the service restarting, or the connection dropped: try again.
    }
    connected = false;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(30_000, delay * 2);
  }
  running = false;
}

async function readStream(onOpen: () => void): Promise<void> {
  const session = await currentSession();
  const res = await fetch(`${session.baseUrl}/api/events`, {
    headers: { Authorization: `Bearer ${session.token}`, Accept: 'text/event-stream' },
  });
  if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!type || data === undefined) continue; // comments (heartbeats) and the retry hint
      if (type === 'ready') {
        connected = true;
        onOpen();
        dispatch({ type: 'ready' });
      } else if (type === 'job') {
        dispatch({ type, data: JSON.parse(data) as JobEvent });
      } else if (type === 'traits') {
        dispatch({ type, data: JSON.parse(data) as TraitsEvent });
      }
    }
  }
}
