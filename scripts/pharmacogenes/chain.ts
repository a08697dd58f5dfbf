/**
 * A small reader of UCSC liftOver chain files (../shared/data/liftover), enough to place
 * the drug–gene defining positions of GRCh38 on GRCh37. Format: header lines
 * `chain score tName tSize tStrand tStart tEnd qName qSize qStrand qStart qEnd id`, then
 * `size dt dq` blocks; coordinates 0-based, half-open. A position in no block, or mapped to
 * another chromosome, is not lifted (null): the build then keeps only its GRCh38 position.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface LiftedPosition {
  /** 1-based position on the query build. */
  pos: number;
  /** True when the chain maps the region onto the query's minus strand (bases complement). */
  minus: boolean;
}

/** Lift 1-based positions of one chromosome (e.g. "chr10"); the highest-scoring chain wins. */
export function liftPositions(chainFile: string, chrom: string, positions: number[]): Map<number, LiftedPosition> {
  const text = gunzipSync(readFileSync(chainFile)).toString('latin1');
  const best = new Map<number, LiftedPosition & { score: number }>();
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const header = lines[i++];
    if (!header.startsWith('chain ')) continue;
    const f = header.split(/\s+/);
    const score = Number(f[1]);
    const tName = f[2];
    const qName = f[7];
    const qSize = Number(f[8]);
    const qStrand = f[9];
    let t = Number(f[5]);
    let q = Number(f[10]);
    const relevant = tName === chrom && qName === chrom;
    for (; i < lines.length && lines[i] !== ''; i++) {
      if (!relevant) continue;
      const [size, dt, dq] = lines[i].split(/\s+/).map(Number);
      for (const p of positions) {
        const zero = p - 1;
        if (zero >= t && zero < t + size) {
          const qZero = q + (zero - t);
          // On a minus-strand chain q counts from the end of the reverse-complemented chromosome.
          const lifted = qStrand === '-' ? qSize - qZero : qZero + 1;
          const prior = best.get(p);
          if (!prior || prior.score < score) best.set(p, { pos: lifted, minus: qStrand === '-', score });
        }
      }
      t += size + (dt || 0);
      q += size + (dq || 0);
    }
  }
  return new Map([...best].map(([p, { pos, minus }]) => [p, { pos, minus }]));
}
