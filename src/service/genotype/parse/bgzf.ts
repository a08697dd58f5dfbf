/**
 * BGZF, the container bgzip writes and sequencing VCFs come in: a gzip file of independent
 * members of at most 64 KiB, each stating its own compressed length in a "BC" extra
 * subfield (SAM/BAM format specification, section 4.1). Since the members are independent
 * and their bounds are known before inflating, batches of them inflate side by side on
 * zlib's thread pool while this thread parses the batch before. Inflating costs more CPU
 * than parsing a VCF line without rsIDs; one zlib stream (containers.ts `inflate`, which
 * plain gzip keeps) does it on one thread, batches on as many as are free.
 *
 * The checks of the plain gzip path all hold: zlib checks every member's CRC-32 and length
 * (each batch is gunzipped as whole members), the stated lengths are counted against the
 * output budget and the bomb ratio before a batch is started, and a batch can never inflate
 * past the lengths its members state (maxOutputLength), so a member that lies about its
 * length costs at most its stated length in memory.
 */
import { gunzip } from 'node:zlib';

/** A member's header: 10 fixed bytes, then XLEN (2) and the extra field. */
const FIXED_HEADER = 12;
const TRAILER = 8;
const FLG_FEXTRA = 0x04;
const MAX_MEMBER_TEXT = 1 << 16;

/**
 * Stated text per batch, at most: 16 full members. Large enough that a gunzip call's set-up
 * (a zlib stream and its window) is paid once per mebibyte, small enough that the batches
 * in flight hold little memory.
 */
const BATCH_TEXT_BYTES = 1 << 20;
/** Batches inflating at once: zlib's thread pool has four threads; one is left for file reads. */
const BATCHES_IN_FLIGHT = 3;

/**
 * The length of the BGZF member starting at `at` (header, data and trailer), or -1 when
 * the gzip member there carries no BC subfield (plain gzip) or the header is malformed.
 * Null when `b` ends before the header does.
 */
export function bgzfMemberLength(b: Uint8Array, at = 0): number | null {
  if (b.length - at < FIXED_HEADER) return null;
  if (b[at] !== 0x1f || b[at + 1] !== 0x8b || b[at + 2] !== 8 || (b[at + 3] & FLG_FEXTRA) === 0) return -1;
  const xlen = b[at + 10] | (b[at + 11] << 8);
  if (b.length - at < FIXED_HEADER + xlen) return null;
  const end = at + FIXED_HEADER + xlen;
  for (let p = at + FIXED_HEADER; p + 4 <= end;) {
    const slen = b[p + 2] | (b[p + 3] << 8);
    if (b[p] === 66 /* B */ && b[p + 1] === 67 /* C */ && slen === 2 && p + 6 <= end) {
      const length = (b[p + 4] | (b[p + 5] << 8)) + 1;
      return length >= FIXED_HEADER + xlen + TRAILER ? length : -1;
    }
    p += 4 + slen;
  }
  return -1;
}

/** Whether a gzip stream is BGZF, from its first bytes. */
export function isBgzf(head: Uint8Array): boolean {
  const length = bgzfMemberLength(head);
  return length !== null && length > 0;
}

/** How the BGZF members ended. */
export type BgzfEnd =
  | { kind: 'end' }
  /**
   * Bytes that are not a whole BGZF member (a plain gzip member, a member cut short, other
   * bytes): the caller reads them as plain gzip, which reads or refuses them as it always did.
   */
  | { kind: 'other'; rest: AsyncIterable<Uint8Array> }
  /** The output check refused the next batch (it threw this). */
  | { kind: 'refused'; error: unknown };

/** Counts each batch's stated text and compressed bytes before it starts; throws to refuse it. */
export type OutputCheck = (statedText: number, compressed: number) => void;

/**
 * Inflates a BGZF stream batch by batch and yields each batch's text in file order, one
 * buffer per batch as zlib filled it. zlib's errors (a corrupt member, a length other than
 * the stated one) are thrown as zlib reports them, in file order, for the caller to word.
 * Returns how the members ended, after the text of every batch before that.
 */
export async function* inflateBgzf(
  input: AsyncIterable<Uint8Array>,
  check: OutputCheck,
): AsyncGenerator<Uint8Array, BgzfEnd> {
  const it = input[Symbol.asyncIterator]();
  let buf: Uint8Array = new Uint8Array(0);
  let start = 0; // the first byte of buf not yet in a batch; offsets below are relative to it
  let inputDone = false;
  let handedOn = false;

  /** At least `n` bytes past `start` in buf (false when the input ends first). */
  async function have(n: number): Promise<boolean> {
    while (buf.length - start < n) {
      if (inputDone) return false;
      const r = await it.next();
      if (r.done) {
        inputDone = true;
        return false;
      }
      const chunk = r.value;
      if (start === buf.length) buf = chunk;
      else {
        const joined = new Uint8Array(buf.length - start + chunk.length);
        joined.set(buf.subarray(start));
        joined.set(chunk, buf.length - start);
        buf = joined;
      }
      start = 0;
    }
    return true;
  }

  /** The length of the whole BGZF member `offset` bytes past `start`, or -1 when there is none. */
  async function memberAt(offset: number): Promise<number> {
    if (!(await have(offset + FIXED_HEADER))) return -1;
    const p = start + offset;
    const xlen = buf[p + 10] | (buf[p + 11] << 8);
    if (!(await have(offset + FIXED_HEADER + xlen))) return -1;
    const length = bgzfMemberLength(buf, start + offset) ?? -1;
    if (length < 0 || !(await have(offset + length))) return -1;
    // BGZF members hold at most 64 KiB of text; one that states more is read as plain gzip.
    return statedAt(offset + length) <= MAX_MEMBER_TEXT ? length : -1;
  }

  /** The text length stated by the trailer of the member that ends `offset` bytes past `start`. */
  function statedAt(offset: number): number {
    const m = start + offset;
    return (buf[m - 4] | (buf[m - 3] << 8) | (buf[m - 2] << 16) | (buf[m - 1] << 24)) >>> 0;
  }

  /** The unread input from `start` on, for the plain gzip reader. */
  function rest(): AsyncIterable<Uint8Array> {
    const first = buf.subarray(start);
    start = buf.length;
    handedOn = true;
    return {
      async *[Symbol.asyncIterator]() {
        if (first.length > 0) yield first;
        if (inputDone) return;
        for (;;) {
          const r = await it.next();
          if (r.done) return;
          yield r.value;
        }
      },
    };
  }

  /** The next batch of whole members (null: none), and how the members end if they end after it. */
  async function nextBatch(): Promise<{ text: Promise<Uint8Array> | null; end: BgzfEnd | null }> {
    let length = 0;
    let stated = 0;
    let end: BgzfEnd | null = null;
    let other = false;
    while (stated + MAX_MEMBER_TEXT <= BATCH_TEXT_BYTES) {
      if (!(await have(length + 1))) {
        end = { kind: 'end' };
        break;
      }
      // Zeros after the last member (tar-style padding) are ignored, as zlib ignores them.
      if (buf[start + length] === 0) {
        end = { kind: 'end' };
        break;
      }
      const member = await memberAt(length);
      if (member < 0) {
        other = true;
        break;
      }
      length += member;
      stated += statedAt(length);
    }
    const members = buf.subarray(start, start + length);
    start += length;
    if (other) end = { kind: 'other', rest: rest() };
    if (length === 0) return { text: null, end };
    try {
      check(stated, members.length);
    } catch (error) {
      return { text: null, end: { kind: 'refused', error } };
    }
    return { text: inflateMembers(members, stated), end };
  }

  try {
    const queue: Array<Promise<Uint8Array>> = [];
    let end: BgzfEnd | null = null;
    for (;;) {
      while (end === null && queue.length < BATCHES_IN_FLIGHT) {
        const next = await nextBatch();
        if (next.text) queue.push(next.text);
        end = next.end;
      }
      const text = queue.shift();
      if (text === undefined) return end ?? { kind: 'end' };
      const out = await text;
      if (out.length > 0) yield out;
    }
  } finally {
    // Stopped early (refused, or failed): batches in flight finish on their own and are
    // dropped (inflateMembers keeps their rejections from going unhandled).
    if (!inputDone && !handedOn) await it.return?.();
  }
}

/** zlib's error inflating a batch of members (a read error of the input is thrown as it is). */
export class BgzfMemberError extends Error {
  constructor(readonly zlibError: unknown) {
    super('a BGZF member could not be inflated', { cause: zlibError });
  }
}

/** Whole members gunzipped on the thread pool into one buffer of their stated length. */
function inflateMembers(members: Uint8Array, stated: number): Promise<Uint8Array> {
  const text = new Promise<Uint8Array>((resolve, reject) => {
    gunzip(
      members,
      // One byte of room past the stated length: zlib fills one buffer in one pass, and
      // members that inflate to more than they state fail at once (ERR_BUFFER_TOO_LARGE).
      { chunkSize: Math.max(64, stated + 1), maxOutputLength: Math.max(1, stated) },
      (error, out) => {
        if (error) reject(new BgzfMemberError(error));
        else resolve(new Uint8Array(out.buffer, out.byteOffset, out.length));
      },
    );
  });
  text.catch(() => undefined);
  return text;
}
