/**
 * The local log (src/service/log-file.ts): written by a real service run in the data
 * folder, rotated at its size limit, and free of what must never be in it — genotype calls,
 * the names of profiles, access tokens and sign-in codes — after a real genome upload, a
 * file that fails to parse, and the service's own sign-in link printed on the console.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyConsoleToLog, logFilePath, openLogFile, redactForLog } from '../../src/service/log-file.js';
import type { Profile } from '../../src/shared/api.js';
import { uploadThroughApi, type RunningApp } from '../e2e/support/app.js';
import { personFile } from '../support/genotypes.js';
import { request, startServer, tempDir, type TestServer } from '../support/server.js';

const NAME = { first_name: 'Wilhelmina', last_name: 'Quartermaine' };

const dataDir = tempDir();
let server: TestServer;
let app: Pick<RunningApp, 'origin' | 'token' | 'api'>;
let output: string;
let genome: string;
let log: string;

beforeAll(async () => {
  // The folder is kept after the service stops, so its log can be read.
  server = await startServer({ dataDir });
  app = {
    origin: server.origin,
    token: server.appToken,
    async api<T>(method: string, apiPath: string, body?: unknown) {
      const r = await request<T>(`${server.api}${apiPath}`, { method, token: server.appToken, json: body });
      return { status: r.status, body: r.body };
    },
  };
  genome = personFile({ seed: 11 });
  const profile = (await app.api<Profile>('POST', '/profiles/', { ...NAME, gender: 2, ethnicity: 1 })).body;
  await uploadThroughApi(app as RunningApp, profile.id, genome);
  // A second profile whose file fails to parse: its error path runs too.
  const broken = (await app.api<Profile>('POST', '/profiles/', { first_name: 'Ottoline', last_name: 'Vexley' })).body;
  const { body } = await app.api<{ url: string }>(
    'GET',
    `/profiles/${broken.id}/genotype/upload/?content-type=text/plain`,
  );
  await fetch(body.url, {
    method: 'PUT',
    headers: { 'Content-Type': 'text/plain' },
    body: 'rs4988235\tAG\nnot a genotype file\n',
  });
  await app.api('POST', `/profiles/${broken.id}/genotype/upload/`);
  // A request the service refuses, with a token in it.
  await fetch(`${app.origin}/api/profiles/`, { headers: { Authorization: `Bearer ${app.token}x` } });
  output = server.output();
  await server.stop();
  log = readFileSync(logFilePath(dataDir), 'utf8');
}, 300_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the log of a service run', () => {
  it('is in the data folder and says when the service started and stopped', () => {
    expect(log).toMatch(/^\S+Z INFO {2}service \d+\.\d+\.\d+\S* started on http:\/\/127\.0\.0\.1:\d+/m);
    expect(log).toMatch(/INFO {2}service stopped, database closed\n$/);
  });

  it('holds no genotype call of the uploaded file, no profile name, no token or sign-in code', () => {
    const calls = genome
      .split('\n')
      .filter((line) => /^(rs|i)\d+\t/.test(line))
      .map((line) => line.split('\t'));
    expect(calls.length).toBeGreaterThan(1000);
    for (const [rsid, , , call] of calls) expect(log).not.toMatch(new RegExp(`${rsid}\\b[^\\n]*\\b${call}\\b`));
    for (const name of [NAME.first_name, NAME.last_name, 'Ottoline', 'Vexley']) expect(log).not.toContain(name);
    expect(log).not.toContain(app.token);
    const signInCode = /#signin=(\S+)/.exec(output)![1];
    expect(log).not.toContain(signInCode);
  });
});

describe('the log file', () => {
  it('rotates at its size limit, keeping a bounded number of older files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-log-'));
    const file = openLogFile(dir, { maxBytes: 2000, kept: 2 });
    for (let i = 0; i < 200; i++) file.write('info', `line ${i} of a long run`);
    const names = readdirSync(path.dirname(file.path)).sort();
    expect(names).toEqual(['traitscope.log', 'traitscope.log.1', 'traitscope.log.2']);
    for (const name of names) expect(statSync(path.join(path.dirname(file.path), name)).size).toBeLessThanOrEqual(2000);
    expect(readFileSync(file.path, 'utf8')).toMatch(/line 199 of a long run\n$/);
  });

  it('takes the warnings and errors printed on the console, redacted', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-log-'));
    const file = openLogFile(dir);
    const restore = copyConsoleToLog(file);
    const token = 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg';
    try {
      console.error(
        '[traitscope] unexpected error:',
        new Error(`line 3: rs4988235\t2\t136608646\tAG; Bearer ${token}`),
      );
    } finally {
      restore();
    }
    const text = readFileSync(file.path, 'utf8');
    expect(text).toContain('ERROR [traitscope] unexpected error: Error: line 3: rs4988235 [rest of line redacted]');
    expect(text).not.toContain(token);
    expect(text).not.toContain('136608646');
    expect(redactForLog('/api/profiles/?x#signin=abc.def-ghi')).toBe('/api/profiles/?x#signin=[redacted]');
  });
});
