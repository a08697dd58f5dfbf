/**
 * The messages of GET /api/events (Server-Sent Events) as schemas, so the OpenAPI document
 * describes each event type instead of a bare string. The TypeScript types the service and
 * the renderer share are in src/shared/events.ts; the checks below keep the two alike.
 */
import { z } from 'zod';
import type { JobEvent as JobEventType, TraitsEvent as TraitsEventType } from '../events.js';

const count = z.int().min(0);

export const JobEventData = z
  .object({
    job_id: z.int().min(0).describe('Unique per service run.'),
    kind: z.enum(['processing', 'scoring']).describe('processing: reading an uploaded file; scoring: scoring traits.'),
    profile_id: z.uuid(),
    state: z
      .enum(['queued', 'running', 'done', 'failed', 'superseded'])
      .describe('superseded: a newer upload or a profile deletion made the job moot.'),
    stage: z.enum(['parsing', 'scoring', 'storing']).optional().describe('While running.'),
    done: count.optional().describe('While scoring: traits scored so far.'),
    total: count.optional().describe('While scoring: traits to score in all.'),
    queue_position: count.optional().describe('When queued: how many jobs wait before this one.'),
    snp_count: count.optional().describe('When a processing job is done: markers read.'),
    computed: count.optional().describe('When a scoring job is done: results stored.'),
    unavailable: count.optional().describe('When a scoring job is done: traits that cannot be computed.'),
    detail: z.string().optional().describe('When failed: what went wrong, for people.'),
  })
  .meta({
    id: 'JobEventData',
    description: 'The data of `event: job`: one of the client’s jobs changed state.',
    examples: [
      {
        job_id: 3,
        kind: 'processing',
        profile_id: '3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10',
        state: 'running',
        stage: 'parsing',
      },
    ],
  });

export const TraitsEventData = z.object({ profile_id: z.uuid() }).meta({
  id: 'TraitsEventData',
  description: 'The data of `event: traits`: the profile’s stored results changed; read its trait list again.',
});

export const ReadyEventData = z.object({}).meta({
  id: 'ReadyEventData',
  description:
    'The data of `event: ready`, sent once on connecting after the latest event of each job still under way.',
});

/** One message of the stream, parsed: its `event:` line and its `data:` line as JSON. */
export const EventMessage = z
  .discriminatedUnion('event', [
    z.object({ event: z.literal('job'), data: JobEventData }),
    z.object({ event: z.literal('traits'), data: TraitsEventData }),
    z.object({ event: z.literal('ready'), data: ReadyEventData }),
  ])
  .meta({
    id: 'EventMessage',
    description:
      'One Server-Sent Event of GET /api/events: `event: <event>` then `data: <data as JSON>` and a blank line. The stream also sends `retry: 2000` first and a comment line every 15 s.',
  });

// The schemas describe exactly the shared types (a compile error when either changes alone).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const jobAlike: Same<z.infer<typeof JobEventData>, JobEventType> = true;
const traitsAlike: Same<z.infer<typeof TraitsEventData>, TraitsEventType> = true;
void [jobAlike, traitsAlike];
