/** Request validation against the shared schemas, with errors that name the field. */
import type { z } from 'zod';
import { HttpError } from './errors.js';

/** Profile input: the spec answers invalid input with 405. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, status: number, what: string): z.infer<T> {
  const value = body === undefined ? {} : body;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  if (
    issues.every((i) => i.path.length === 0) &&
    (typeof value !== 'object' || value === null || Array.isArray(value))
  ) {
    throw new HttpError(status, `${what} must be a JSON object.`, {}, 'invalid_input');
  }
  // Every bad field, not only the first: a tool fixes them in one round.
  const problems = issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : null;
    return `${field && !issue.message.startsWith(field) ? `${field}: ` : ''}${issue.message}`;
  });
  throw new HttpError(status, `Invalid ${what}: ${problems.join('; ')}.`, {}, 'invalid_input');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
