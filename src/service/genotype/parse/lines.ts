/**
 * Cuts a stream of text chunks into lines without creating strings. Each line is handed
 * over as (buf, start, end) with the line ending (LF, CRLF or a lone CR) removed; the
 * bytes are only valid during the call. A line longer than maxLineBytes is never
 * buffered: the sink is told, and the rest of that line is dropped as it streams by.
 */
export interface LineSink {
  line: (buf: Uint8Array, start: number, end: number) => void;
  /** Every complete line of buf[start, end), which ends just after a line feed. */
  lines: (buf: Uint8Array, start: number, end: number) => void;
  /** A line exceeded the limit; it is dropped. May throw to reject the whole file. */
  longLine: () => void;
}

const LF = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  private carry: Uint8Array;
  private carryLen = 0;
  private dropping = false;
  /** Set when the text uses lone CR line endings (classic Mac OS exports). */
  private crOnly: boolean | null = null;

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineBytes: number,
  ) {
    this.carry = new Uint8Array(Math.min(maxLineBytes, 1 << 16));
  }

  push(chunk: Uint8Array): void {
    if (this.crOnly === null) this.crOnly = detectCrOnly(chunk);
    const sep = this.crOnly ? CR : LF;
    const sink = this.sink;
    let pos = 0;
    const n = chunk.length;
    if (this.carryLen > 0 || this.dropping) {
      const nl = chunk.indexOf(sep);
      if (nl < 0) {
        this.appendCarry(chunk, 0, n);
        return;
      }
      this.appendCarry(chunk, 0, nl);
      if (!this.dropping) this.emit(this.carry, 0, this.carryLen);
      this.carryLen = 0;
      this.dropping = false;
      pos = nl + 1;
    }
    // The bulk of a chunk goes to the sink in one call; no line in it can exceed the
    // limit when the whole chunk is within it.
    if (!this.crOnly && n - pos <= this.maxLineBytes) {
      const last = chunk.lastIndexOf(LF);
      if (last >= pos) {
        sink.lines(chunk, pos, last + 1);
        pos = last + 1;
      }
    }
    while (pos < n) {
      const nl = chunk.indexOf(sep, pos);
      if (nl < 0) {
        this.appendCarry(chunk, pos, n);
        return;
      }
      let end = nl;
      if (end > pos && chunk[end - 1] === CR) end--;
      if (end - pos > this.maxLineBytes) sink.longLine();
      else sink.line(chunk, pos, end);
      pos = nl + 1;
    }
  }

  end(): void {
    if (this.carryLen > 0 && !this.dropping) this.emit(this.carry, 0, this.carryLen);
    this.carryLen = 0;
    this.dropping = false;
  }

  private emit(buf: Uint8Array, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    this.sink.line(buf, start, end);
  }

  private appendCarry(chunk: Uint8Array, from: number, to: number): void {
    if (this.dropping) return;
    const need = this.carryLen + (to - from);
    if (need > this.maxLineBytes) {
      this.dropping = true;
      this.carryLen = 0;
      this.sink.longLine();
      return;
    }
    if (need > this.carry.length) {
      const bigger = new Uint8Array(Math.min(this.maxLineBytes, Math.max(need, this.carry.length * 2)));
      bigger.set(this.carry.subarray(0, this.carryLen));
      this.carry = bigger;
    }
    this.carry.set(chunk.subarray(from, to), this.carryLen);
    this.carryLen = need;
  }
}

/** Lone-CR files have CRs and no LF at all in their first chunk. */
function detectCrOnly(chunk: Uint8Array): boolean {
  return chunk.indexOf(LF) < 0 && chunk.indexOf(CR) >= 0;
}
