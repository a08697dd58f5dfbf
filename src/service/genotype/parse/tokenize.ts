/**
 * Splits one line into fields in place: field k spans [starts[k], ends[k]). Runs of
 * separator bytes count as one separator (spec rule 7), and quotes are treated as
 * separators so quoted CSV (MyHeritage, FTDNA) needs no special case.
 */
export const MAX_FIELDS = 64;

function table(chars: string): Uint8Array {
  const t = new Uint8Array(256);
  for (const ch of chars) t[ch.charCodeAt(0)] = 1;
  return t;
}

/** Space, tab, comma, semicolon, quotes: any of them separates fields. */
export const SEP_ANY = table(' \t,;"\'\r');
/** Tab only, for exports whose cells contain spaces (Illumina reports: "SNP Name", "Allele1 - Top"). */
export const SEP_TAB = table('\t\r');
const TRIM = table(' "\'');

export class Fields {
  readonly starts = new Int32Array(MAX_FIELDS);
  readonly ends = new Int32Array(MAX_FIELDS);
  count = 0;

  /** Tokenizes buf[s, e) into at most max fields; returns the number found. */
  split(buf: Uint8Array, s: number, e: number, sep: Uint8Array, max: number): number {
    const starts = this.starts;
    const ends = this.ends;
    let n = 0;
    let i = s;
    while (n < max) {
      while (i < e && sep[buf[i]] === 1) i++;
      if (i >= e) break;
      let fs = i;
      while (i < e && sep[buf[i]] !== 1) i++;
      let fe = i;
      if (sep === SEP_TAB) {
        while (fs < fe && TRIM[buf[fs]] === 1) fs++;
        while (fe > fs && TRIM[buf[fe - 1]] === 1) fe--;
        if (fs === fe) {
          // an empty cell still occupies its column in a tab-only table
          starts[n] = fs;
          ends[n++] = fe;
          continue;
        }
      }
      starts[n] = fs;
      ends[n++] = fe;
    }
    this.count = n;
    return n;
  }
}
