/**
 * A multi-allelic site written as several VCF records, one ALT each, as `bcftools norm -m-`
 * writes it: `1/2` at REF A, ALT G,T becomes `A>G 1/0` and `A>T 0/1`; `2/2` becomes
 * `A>G 0/0` and `A>T 1/1`. Each record alone names a wrong genotype (`GA`, then `AT`; or
 * REF/REF for a person homozygous for T), so the records of one site are read together:
 * the non-reference alleles of each, REF filling the remaining copies (docs/file-formats.md,
 * "Duplicate rule"). The WebAssembly core applies the same rule to records of one rsID
 * (wasm/core.c merge_split); sites.ts to records at a marker's position.
 */

/** Two calls of the same alleles, in either order (wasm/core.c same_call). */
export function sameAlleles(a: number, b: number): boolean {
  return a === b || (((a & 0xf) << 4) | (a >> 4)) === b;
}

/** The highest allele code of a single base (encoding.ts: A, C, G, T are 1-4). */
const LAST_BASE = 4;

/**
 * The call of a site from the call kept so far and the next record's, both read at the same
 * position against the same single-base REF `ref` (an allele code): 0 when they cannot be
 * one site's — no REF known, an allele that is no single base, another number of copies
 * (haploid against diploid), the same ALT in both (a repeated or conflicting line), or more
 * ALTs than copies. When the next record adds no ALT, the kept call stands as written.
 */
export function mergeSplitCalls(kept: number, next: number, ref: number): number {
  if (ref === 0 || kept === 0 || next === 0) return 0;
  const k = [kept >> 4, kept & 0xf];
  const n = [next >> 4, next & 0xf];
  if ((k[1] === 0) !== (n[1] === 0) || [...k, ...n].some((a) => a > LAST_BASE)) return 0;
  const copies = k[1] === 0 ? 1 : 2;
  const keptAlts = k.filter((a) => a !== 0 && a !== ref);
  const nextAlts = n.filter((a) => a !== 0 && a !== ref);
  if (keptAlts.length + nextAlts.length > copies || nextAlts.some((a) => keptAlts.includes(a))) return 0;
  if (nextAlts.length === 0) return kept;
  const alleles = [...keptAlts, ...nextAlts];
  while (alleles.length < copies) alleles.push(ref);
  return copies === 1 ? alleles[0] << 4 : (alleles[0] << 4) | alleles[1];
}
