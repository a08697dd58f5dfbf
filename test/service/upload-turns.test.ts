/**
 * Receiving an upload shares the event loop (src/service/storage/file-store.ts): however much
 * of the body is waiting, one turn of the loop takes a bounded slice of it, so requests that
 * arrive meanwhile are answered between slices. The body here has all its bytes ready at
 * once, as a socket whose kernel buffer is full does.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { receiveUpload, storedFilePath } from '../../src/service/storage/file-store.js';
import { createUploadDigester } from '../../src/service/storage/upload-digests.js';
import { scienceSize } from '../support/science-scale.js';

const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-upload-turns-'));
const digester = createUploadDigester({ nice: 10 });
afterAll(async () => {
  await digester.close();
  rmSync(dir, { recursive: true, force: true });
});

const CHUNK = 64 * 1024;
/**
 * The body: 8 MiB in full; 2 MiB in the quick loop, where counting the turns (a chain of
 * setImmediate that keeps the loop spinning while the upload is received) costs less. Both
 * are at least four times the most a turn may take and more than a turn without the budget took
 * (all that was waiting, up to the file's 4 MiB buffer), so both fail without the budget.
 */
const BODY_BYTES = scienceSize(2, 8) * 1024 * 1024;

describe('receiving an upload', () => {
  it('takes at most a few hundred KiB of a waiting body per turn of the event loop, and stores all of it', async () => {
    const content = Buffer.alloc(BODY_BYTES);
    for (let i = 0; i < content.length; i++) content[i] = (i * 31 + (i >> 12)) & 0xff;

    // Turns of the loop, counted by a chain of setImmediate (one callback per turn).
    let turn = 0;
    let counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);

    // A body that hands over 64 KiB chunks synchronously, as fast as it is read.
    const takenPerTurn = new Map<number, number>();
    let offset = 0;
    const body = new Readable({
      highWaterMark: CHUNK,
      read() {
        while (offset < content.length) {
          const chunk = content.subarray(offset, offset + CHUNK);
          offset += chunk.length;
          takenPerTurn.set(turn, (takenPerTurn.get(turn) ?? 0) + chunk.length);
          if (!this.push(chunk)) return;
        }
        this.push(null);
      },
    });

    const stored = await receiveUpload(dir, 'turns', body, content.length, digester);
    counting = false;

    expect(stored.size).toBe(content.length);
    expect(readFileSync(storedFilePath(dir, 'turns')).equals(content)).toBe(true);
    // 256 KiB per turn, plus what the streams between the body and the file buffer (a
    // chunk each); without the budget a turn took megabytes (up to the file's 4 MiB buffer).
    const most = Math.max(...takenPerTurn.values());
    expect(most).toBeLessThanOrEqual(256 * 1024 + 4 * CHUNK);
    expect(takenPerTurn.size).toBeGreaterThanOrEqual(content.length / (256 * 1024 + 4 * CHUNK));
  });
});
