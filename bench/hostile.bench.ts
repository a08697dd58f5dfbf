/**
 * Time and memory of hostile inputs (run by `npm run bench`; standalone:
 * `npx tsx bench/hostile.bench.ts`). The unit tests (test/parser/bad-input.test.ts,
 * properties.test.ts) check that these inputs are refused and how much of them is read;
 * how long that takes and how much memory it costs depends on the machine, so it is
 * measured here, each figure beside a baseline from the same run:
 *  - a 1 GiB file that is one line, refused after a few MiB: time and RSS growth, against
 *    reading the same number of bytes from the same source and parsing nothing;
 *  - a 1 GiB multi-member gzip bomb, refused: time against zlib inflating the 100 MiB the
 *    parser may inflate before refusing;
 *  - small random inputs (the property tests' shapes): the slowest single parse against the
 *    median parse of the 23andMe v5 fixture, and RSS growth over a hundred 64 KiB inputs.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { parseGenotypeBytes, parseGenotypeSource, type ByteSource } from '../src/service/genotype/parse/index.js';
import { plainFixture } from '../test/fixtures/genotypes/wrap.js';
import { rng } from '../test/support/prng.js';
import { median, recordTarget } from './report.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** A source of `size` bytes of one letter, produced on demand (no disk, no memory). */
function oneLetterSource(size: number): ByteSource & { bytesRead: number } {
  const src = {
    size,
    bytesRead: 0,
    async read(offset: number, length: number) {
      const n = Math.max(0, Math.min(length, size - offset));
      src.bytesRead += n;
      return new Uint8Array(n).fill(0x41);
    },
    async close() {},
  };
  return src;
}

const rssMiB = () => process.memoryUsage().rss / MiB;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function oneLine(): Promise<void> {
  const probe = oneLetterSource(GiB);
  const rss0 = rssMiB();
  const refuse = await timed(async () => {
    const r = await parseGenotypeSource(probe);
    if (r.ok) throw new Error('the 1 GiB one-line file was read');
  });
  const growth = rssMiB() - rss0;
  const bytes = probe.bytesRead;
  const read = await timed(async () => {
    const src = oneLetterSource(GiB);
    for (let at = 0; at < bytes; at += MiB) await src.read(at, Math.min(MiB, bytes - at));
  });
  console.log(`1 GiB one-line file: refused after reading ${(bytes / MiB).toFixed(1)} MiB`);
  recordTarget({
    target: '1 GiB one-line file refused (time)',
    figure: refuse,
    unit: 'ms',
    limit: 5000,
    baseline: { name: `reading the same ${(bytes / MiB).toFixed(1)} MiB, no parsing`, value: read, unit: 'ms' },
  });
  recordTarget({
    target: '1 GiB one-line file refused (RSS growth)',
    figure: growth,
    unit: 'MiB',
    limit: 64,
    baseline: { name: 'RSS before', value: rss0, unit: 'MiB' },
  });
}

async function gzipBomb(): Promise<void> {
  const line = new TextEncoder().encode('rs123\t1\t1000\tAA\n');
  const block = new Uint8Array(4 * MiB);
  for (let i = 0; i + line.length <= block.length; i += line.length) block.set(line, i);
  const member = gzipSync(block, { level: 9 });
  const bomb = new Uint8Array(member.length * 256); // 1 GiB once inflated
  for (let i = 0; i < 256; i++) bomb.set(member, i * member.length);
  const refuse = await timed(async () => {
    const r = await parseGenotypeBytes(bomb);
    if (r.ok || !/decompression bomb/.test(r.reason))
      throw new Error(`the gzip bomb was not refused as one: ${r.ok ? 'read' : r.reason}`);
  });
  const inflate = await timed(async () => {
    for (let i = 0; i < 25; i++) gunzipSync(member); // 25 × 4 MiB = 100 MiB
  });
  recordTarget({
    target: '1 GiB multi-member gzip bomb refused',
    figure: refuse,
    unit: 'ms',
    limit: 10_000,
    baseline: { name: 'zlib inflating 100 MiB of it', value: inflate, unit: 'ms' },
  });
}

async function smallInputs(): Promise<void> {
  const fixture = await plainFixture('23andme_v5.txt');
  const fixtureTimes: number[] = [];
  for (let i = 0; i < 21; i++) fixtureTimes.push(await timed(() => parseGenotypeBytes(fixture)));
  const rand = rng(7);
  const alphabet = new TextEncoder().encode('rs0123456789ACGTDI-#\t ,;"\r\nXYMTchr/|.');
  let slowest = 0;
  for (let i = 0; i < 300; i++) {
    const bytes = new Uint8Array(Math.floor(rand() * 4096));
    const text = i % 2 === 1;
    for (let j = 0; j < bytes.length; j++)
      bytes[j] = text ? alphabet[Math.floor(rand() * alphabet.length)] : Math.floor(rand() * 256);
    slowest = Math.max(slowest, await timed(() => parseGenotypeBytes(bytes)));
  }
  recordTarget({
    target: 'Slowest parse of 300 random inputs up to 4 KiB',
    figure: slowest,
    unit: 'ms',
    limit: 2000,
    baseline: { name: 'median parse of the 23andMe v5 fixture', value: median(fixtureTimes), unit: 'ms' },
  });

  const rss0 = rssMiB();
  for (let i = 0; i < 100; i++) {
    const bytes = new Uint8Array(1024 + Math.floor(rand() * 64_512));
    for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(rand() * 256);
    await parseGenotypeBytes(bytes);
  }
  recordTarget({
    target: 'RSS growth over 100 parses of random inputs up to 64 KiB',
    figure: rssMiB() - rss0,
    unit: 'MiB',
    limit: 256,
    baseline: { name: 'RSS before', value: rss0, unit: 'MiB' },
  });
}

export async function run(): Promise<void> {
  await oneLine();
  await gzipBomb();
  await smallInputs();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
