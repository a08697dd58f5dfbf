/**
 * VCF (v4.x) data lines, on bytes. The first sample column is read (or the one chosen for
 * the profile, detect.ts); its GT subfield gives allele indices into REF and ALT. Phased
 * ("|") and unphased ("/") calls are read alike; "." alleles are no-calls; one index
 * (e.g. "1" on X in males) is a haploid call. Indels become 23andMe-style D/I alleles: the shortest allele of the
 * record is D, longer ones I; at an indel marker of the position index, by its own alleles
 * (sites.ts, indels.ts). Multi-base substitutions and symbolic alleles are skipped.
 *
 * With a position index (sites.ts), every record is also looked up by its site, so lines
 * without an rsID (ID ".") are read by position, and a gVCF's reference blocks (ALT only
 * <NON_REF> or <*>, END in INFO, GT 0/0) are read as REF/REF over their span.
 *
 * Speed: lines() hands the common record (a SNV or simple indel, one sample GT) to the
 * WebAssembly loop (wasm/core.c), which walks a cursor through the index instead of
 * searching it per record; a SNV record at a marker's position comes back as a site entry
 * for sites.ts, so its line is not split and read again here. line() below is the reference
 * and decides every other line (indels at markers among them), and
 * test/parser/vcf-fast-path.test.ts checks that both decide alike.
 */
import { ALLELE_DEL, ALLELE_FROM_BYTE, ALLELE_INS } from '../encoding.js';
import type { GenotypeCollector } from './collect.js';
import { RSID_NOT_RS, parseChrom, parseRsid, parseUint } from './fields.js';
import { snvBaseOfAllele } from './indels.js';
import { INDEL_NOT_READ, NOT_AN_INDEL_MARKER, type SiteMatcher } from './sites.js';
import {
  SKIP_BAD_ALLELES,
  SKIP_BAD_CHROMOSOME,
  SKIP_BAD_POSITION,
  SKIP_BAD_RSID,
  SKIP_MALFORMED,
  SKIP_NON_RS_ID,
  SKIP_UNSUPPORTED_VARIANT,
  type SkipCounter,
} from './stats.js';
import { inLoopWindows, type DataLineParser } from './table.js';
import { Fields, SEP_TAB } from './tokenize.js';
import {
  VCF_ENTRIES,
  VCF_ENTRY_WORDS,
  VCF_HOM_REF,
  VCF_LINES,
  VCF_NON_RS,
  VCF_RECORDS,
  VCF_SITES,
  VCF_UNUSED,
  VCF_VARIANT,
} from './wasm/core.js';

const HASH = 0x23;
const COLON = 0x3a;
const SEMI = 0x3b;
const COMMA = 0x2c;
const DOT = 0x2e;
const SLASH = 0x2f;
const PIPE = 0x7c;
const LT = 0x3c;
const STAR = 0x2a;

const MAX_ALLELES = 16;
/** The shortest record the WebAssembly loop takes ("1\t1\t.\tA\t.\t.\t.\t.\tGT\t0\n"), for sizing the records. */
const SHORTEST_LOOP_LINE = 22;

export class VcfParser implements DataLineParser {
  private readonly f = new Fields();
  /** Start/end of REF (index 0) and each ALT allele within the current line. */
  private readonly alleleStart = new Int32Array(MAX_ALLELES);
  private readonly alleleEnd = new Int32Array(MAX_ALLELES);
  /** How many of them the current line has. */
  private alleleCount = 0;

  /** Lines the WebAssembly loop took (the rest came through line()). */
  loopLines = 0;
  /** Records whose FORMAT has no GT: no call to read (a file of that alone is refused saying so). */
  linesWithoutGt = 0;
  /** The REF byte of a site entry, where sites.ts reads a record's REF from. */
  private readonly entryRef = new Uint8Array(1);

  /** Call before any marker is collected: the loop's index keys are laid out before the records. */
  constructor(
    private readonly out: GenotypeCollector,
    private readonly skips: SkipCounter,
    private readonly sites: SiteMatcher | null = null,
    /** Which sample column is read (0: the first; detect.ts). */
    private readonly sampleColumn = 0,
  ) {
    out.core.startVcf(sites !== null, sites?.buildKeys() ?? [], sites?.blocksWithoutAlt ?? false, sampleColumn);
    out.lendReadBuffer();
  }

  /**
   * All lines of a chunk: the common records go through the WebAssembly loop, which
   * writes rsID records straight into the collector; it stops at any other line (and at
   * every record at a marker's position), which line() decides, and then resumes.
   */
  lines(buf: Uint8Array, start: number, end: number): void {
    const core = this.out.core;
    inLoopWindows(this, this.out, buf, start, end, SHORTEST_LOOP_LINE, (s) => {
      const stop = core.parseVcf(s, this.out.length, this.out.limit);
      this.takeLoopCounts();
      this.settleBuild();
      return stop;
    });
  }

  /** Once the sites read so far tell the build, the loop stops looking the other one up. */
  private settleBuild(): void {
    const kept = this.sites?.settleBuild() ?? -1;
    if (kept >= 0) this.out.core.keepVcfBuild(kept);
  }

  private takeLoopCounts(): void {
    const core = this.out.core;
    this.out.length += core.vcfCount(VCF_RECORDS);
    this.loopLines += core.vcfCount(VCF_LINES);
    const nonRs = core.vcfCount(VCF_NON_RS);
    if (nonRs > 0) this.skips.add(SKIP_NON_RS_ID, nonRs);
    const sites = this.sites;
    if (sites === null) return;
    if (core.vcfCount(VCF_SITES) > 0)
      sites.addLoopSites(
        core.vcfCount(VCF_SITES),
        core.vcfCount(VCF_UNUSED),
        core.vcfCount(VCF_HOM_REF),
        core.vcfCount(VCF_VARIANT),
        core.vcfChromSeen,
      );
    // SNV records at a marker's site, read by the loop (which wrote their rsID records):
    // sites.ts takes them as line() hands them over. Site counts do not depend on the order
    // of the loop's other records, and the first call at a marker stays first.
    const entries = core.vcfCount(VCF_ENTRIES);
    if (entries === 0) return;
    const e = core.vcfEntries;
    const ref = this.entryRef;
    for (let k = 0, j = 0; k < entries; k++, j += VCF_ENTRY_WORDS) {
      const packed = e[j + 2];
      ref[0] = (packed >>> 8) & 0xff;
      const rs = e[j + 1];
      sites.site(
        packed & 0xff,
        e[j],
        ref,
        0,
        1,
        (packed >>> 16) & 0xff,
        rs === 0 ? -1 : rs,
        ((packed >>> 24) & 1) === 1,
        ((packed >>> 25) & 1) === 1,
      );
    }
  }

  line(buf: Uint8Array, s: number, e: number): void {
    if (buf[s] === HASH) return;
    const f = this.f;
    const sample = 9 + this.sampleColumn;
    const n = f.split(buf, s, e, SEP_TAB, sample + 1);
    if (n <= sample) return this.skips.addForeign(SKIP_MALFORMED);
    const st = f.starts;
    const en = f.ends;
    const rs = firstRsid(buf, st[2], en[2]);
    const sites = this.sites;
    if (rs < 0 && sites === null) return this.skips.add(rs === RSID_NOT_RS ? SKIP_NON_RS_ID : SKIP_BAD_RSID);
    const chrom = parseChrom(buf, st[0], en[0]);
    if (chrom < 0) {
      // Read by position, a line on an unplaced contig (chrUn_…, GL…, decoys) is just a site Traitscope does not use.
      if (rs < 0 && sites !== null) return sites.unusedSite();
      return this.skips.add(SKIP_BAD_CHROMOSOME);
    }
    const pos = parseUint(buf, st[1], en[1]);
    if (pos < 0) return this.skips.add(SKIP_BAD_POSITION);

    // Alleles: REF then the comma-separated ALT list ("." means none).
    const aS = this.alleleStart;
    const aE = this.alleleEnd;
    aS[0] = st[3];
    aE[0] = en[3];
    let alleles = 1;
    if (!(en[4] - st[4] === 1 && buf[st[4]] === DOT)) {
      let a = st[4];
      for (let i = st[4]; i <= en[4]; i++) {
        if (i === en[4] || buf[i] === COMMA) {
          if (alleles === MAX_ALLELES) return this.skips.add(SKIP_UNSUPPORTED_VARIANT);
          aS[alleles] = a;
          aE[alleles++] = i;
          a = i + 1;
        }
      }
    }

    this.alleleCount = alleles;

    // GT position inside FORMAT (almost always first).
    let gtIndex = -1;
    let k = 0;
    for (let i = st[8], from = st[8]; i <= en[8]; i++) {
      if (i === en[8] || buf[i] === COLON) {
        if (i - from === 2 && buf[from] === 0x47 && buf[from + 1] === 0x54) {
          gtIndex = k;
          break;
        }
        k++;
        from = i + 1;
      }
    }
    if (gtIndex < 0) {
      this.linesWithoutGt++;
      return this.skips.add(SKIP_MALFORMED);
    }
    let gs = st[sample];
    let ge = en[sample];
    for (let i = st[sample], kk = 0; i <= en[sample]; i++) {
      if (i === en[sample] || buf[i] === COLON) {
        if (kk === gtIndex) {
          ge = i;
          break;
        }
        kk++;
        gs = i + 1;
      }
    }
    if (gs >= ge) return this.skips.add(SKIP_MALFORMED);

    // Up to two allele indices separated by "/" or "|".
    let i1 = -2;
    let i2 = -2;
    let count = 0;
    let cur = -2;
    for (let i = gs; i <= ge; i++) {
      const b = i < ge ? buf[i] : SLASH;
      if (b === SLASH || b === PIPE) {
        if (cur === -2) return this.skips.add(SKIP_MALFORMED);
        if (count === 0) i1 = cur;
        else if (count === 1) i2 = cur;
        else return this.skips.add(SKIP_UNSUPPORTED_VARIANT); // polyploid
        count++;
        cur = -2;
      } else if (b === DOT) {
        if (cur !== -2) return this.skips.add(SKIP_MALFORMED);
        cur = -1;
      } else if (b >= 0x30 && b <= 0x39) {
        if (cur === -1) return this.skips.add(SKIP_MALFORMED);
        cur = (cur < 0 ? 0 : cur * 10) + (b - 0x30);
        if (cur > 1000) return this.skips.add(SKIP_MALFORMED);
      } else return this.skips.add(SKIP_MALFORMED);
    }
    if (sites !== null && i1 === 0 && (i2 === 0 || count === 1)) {
      // A gVCF reference block, REF/REF from POS to INFO's END: ALT only <NON_REF> or <*>
      // (a record never read as a site), or, in Strelka's and Isaac's, no ALT and an END.
      const symbolic = this.onlySymbolicAlt(buf, alleles);
      if (symbolic || (alleles === 1 && sites.blocksWithoutAlt)) {
        const end = infoEnd(buf, st[7], en[7]);
        if (end >= pos) sites.referenceBlock(chrom, pos, end);
        if (rs < 0 && (symbolic || end >= pos)) return;
      }
    }
    if (i1 === -1 || i2 === -1) {
      if (sites !== null) sites.site(chrom, pos, buf, st[3], en[3], 0, rs, false, false);
      if (rs >= 0) this.out.add(rs, 0, chrom, pos, this.snvRef(buf, alleles));
      return;
    }
    if (i1 >= alleles || i2 >= alleles) return this.skips.add(SKIP_BAD_ALLELES);
    if (sites !== null) {
      const nonRef = i1 > 0 || i2 > 0;
      sites.site(chrom, pos, buf, st[3], en[3], this.snvCall(buf, i1, count === 2 ? i2 : -1), rs, nonRef, !nonRef);
      // At an indel marker the alleles are compared normalised (indels.ts), not by length alone.
      const indelCall = sites.indelSite(chrom, pos, buf, aS, aE, alleles, i1, count === 2 ? i2 : -1, rs);
      if (rs < 0) return;
      if (indelCall !== NOT_AN_INDEL_MARKER) {
        if (indelCall !== INDEL_NOT_READ) this.out.add(rs, indelCall, chrom, pos);
        return;
      }
    }
    const c1 = this.alleleCode(buf, i1, alleles);
    if (c1 < 0) return this.skips.add(c1 === -1 ? SKIP_BAD_ALLELES : SKIP_UNSUPPORTED_VARIANT);
    let c2 = 0;
    if (count === 2) {
      c2 = this.alleleCode(buf, i2, alleles);
      if (c2 < 0) return this.skips.add(c2 === -1 ? SKIP_BAD_ALLELES : SKIP_UNSUPPORTED_VARIANT);
    }
    this.out.add(rs, (c1 << 4) | c2, chrom, pos, this.snvRef(buf, alleles));
  }

  /**
   * The REF's allele code when the record is a SNV (one base, every ALT one base or none),
   * else 0: the collector reads the records of a multi-allelic site written one ALT a line
   * together by it (split-sites.ts).
   */
  private snvRef(buf: Uint8Array, alleles: number): number {
    for (let k = 1; k < alleles; k++) if (this.singleBase(buf, k) === 0) return 0;
    return this.singleBase(buf, 0);
  }

  /** True when every ALT allele is symbolic (<NON_REF>, <*>) or "*": a reference block. */
  private onlySymbolicAlt(buf: Uint8Array, alleles: number): boolean {
    if (alleles < 2) return false;
    for (let j = 1; j < alleles; j++)
      if (buf[this.alleleStart[j]] !== LT && buf[this.alleleStart[j]] !== STAR) return false;
    return true;
  }

  /**
   * The call as single-base letters for matching a SNP marker by position (the alleles of a
   * multi-allelic record taken one by one; a longer REF is split by splitSnvCall), or 0
   * when a called allele is not one base there.
   */
  private snvCall(buf: Uint8Array, k1: number, k2: number): number {
    if (this.alleleEnd[0] - this.alleleStart[0] !== 1) return this.splitSnvCall(buf, k1, k2);
    const a1 = this.singleBase(buf, k1);
    if (a1 === 0) return 0;
    if (k2 < 0) return a1 << 4;
    const a2 = this.singleBase(buf, k2);
    return a2 === 0 ? 0 : (a1 << 4) | a2;
  }

  /**
   * A record with a longer REF (one that also holds an indel, REF `CT` ALT `C,GT`) split for
   * a SNP marker (indels.ts snvBaseOfAllele): read when one of its ALTs is a SNV at the
   * position and every called allele is REF or such a SNV, else 0.
   */
  private splitSnvCall(buf: Uint8Array, k1: number, k2: number): number {
    const aS = this.alleleStart;
    const aE = this.alleleEnd;
    const base = (k: number) => snvBaseOfAllele(buf, aS[0], aE[0], aS[k], aE[k]);
    const refBase = base(0);
    let snvAlt = false;
    for (let j = 1; j < this.alleleCount && !snvAlt; j++) snvAlt = base(j) !== 0 && base(j) !== refBase;
    const a1 = base(k1);
    const a2 = k2 < 0 ? 0 : base(k2);
    if (!snvAlt || a1 === 0 || (k2 >= 0 && a2 === 0)) return 0;
    return (a1 << 4) | a2;
  }

  private singleBase(buf: Uint8Array, k: number): number {
    if (this.alleleEnd[k] - this.alleleStart[k] !== 1) return 0;
    const code = ALLELE_FROM_BYTE[buf[this.alleleStart[k]]];
    return code >= 1 && code <= 4 ? code : 0;
  }

  /** Allele code for allele index k of the current record; -1 bad letters, -2 unsupported. */
  private alleleCode(buf: Uint8Array, k: number, alleles: number): number {
    const aS = this.alleleStart;
    const aE = this.alleleEnd;
    let allSingle = true;
    let minLen = Infinity;
    for (let j = 0; j < alleles; j++) {
      const len = aE[j] - aS[j];
      if (buf[aS[j]] === 0x3c || buf[aS[j]] === 0x2a) {
        // symbolic <...> or "*": only matters if it is the called allele
        if (j === k) return -2;
        continue;
      }
      if (len !== 1) allSingle = false;
      if (len < minLen) minLen = len;
    }
    const len = aE[k] - aS[k];
    if (allSingle) {
      const code = ALLELE_FROM_BYTE[buf[aS[k]]];
      return code >= 1 && code <= 4 ? code : -1;
    }
    for (let i = aS[k]; i < aE[k]; i++) {
      const code = ALLELE_FROM_BYTE[buf[i]];
      if (code < 1 || code > 4) return -1;
    }
    // Same-length multi-base alleles (MNPs) cannot be written as one letter.
    let lengthsDiffer = false;
    for (let j = 0; j < alleles; j++)
      if (aE[j] - aS[j] !== len && buf[aS[j]] !== 0x3c && buf[aS[j]] !== 0x2a) lengthsDiffer = true;
    if (!lengthsDiffer) return -2;
    return len === minLen ? ALLELE_DEL : ALLELE_INS;
  }
}

/** The END=n value of an INFO column, or -1. */
function infoEnd(buf: Uint8Array, s: number, e: number): number {
  for (let i = s; i + 4 <= e; i++) {
    if (
      (i === s || buf[i - 1] === SEMI) &&
      buf[i] === 0x45 &&
      buf[i + 1] === 0x4e &&
      buf[i + 2] === 0x44 &&
      buf[i + 3] === 0x3d
    ) {
      let j = i + 4;
      let v = 0;
      for (; j < e && buf[j] !== SEMI; j++) {
        const d = buf[j] - 0x30;
        if (d < 0 || d > 9) return -1;
        v = v * 10 + d;
      }
      return j > i + 4 ? v : -1;
    }
  }
  return -1;
}

/** The first rsID in an ID column that may list several ("rs1;rs2") or be ".". */
function firstRsid(buf: Uint8Array, s: number, e: number): number {
  let from = s;
  let firstResult = RSID_NOT_RS;
  for (let i = s; i <= e; i++) {
    if (i === e || buf[i] === SEMI || buf[i] === COMMA) {
      const v = parseRsid(buf, from, i);
      if (v >= 0) return v;
      if (from === s) firstResult = v;
      from = i + 1;
    }
  }
  return firstResult;
}
