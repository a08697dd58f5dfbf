/**
 * Sequencing VCFs read by position (docs/file-formats.md, "Sequencing files"). A
 * whole-genome VCF often has no rsIDs (ID "."), may be GRCh37 or GRCh38, may list only the
 * sites where the person differs from the reference, and a gVCF states reference stretches
 * as blocks. Every data line's site is looked up in the position index
 * (../positions.ts) in each build the file may be in; this module keeps, per build, the
 * markers found there (with the file's REF checked against the expected forward-strand
 * REF), which markers had a line at all, and the reference blocks, and at the end hands the
 * collector the markers of the build the file is in, plus — when the file lists variants
 * only — every unlisted marker of a chromosome the file covers as REF/REF.
 *
 * Memory is bounded by the index, not the file: at most one hit per marker per build is
 * kept (the first with a call), and the listed flags are a byte per marker.
 *
 * Indel markers are read only from indel records, compared by normalised alleles over the
 * reference bases the index knows for them (indels.ts); every position of their windows,
 * and the INDEL_LOOKBEHIND positions in front, is a key of the WebAssembly loop, so a record
 * shifted right within the repeat, or beginning before the marker, comes here too.
 */
import { ALLELE_FROM_BYTE, CHROM_MT, CHROM_Y, makeCall } from '../encoding.js';
import { isDrugGeneDefined, lowerBoundAt, type IndexedBuild, type PositionIndex } from '../positions.js';
import type { Genotype } from '../types.js';
import type { Build } from './build.js';
import type { GenotypeCollector } from './collect.js';
import { INDEL_LOOKBEHIND, indelAlleleCode, readIndelRecord } from './indels.js';
import { mergeSplitCalls, sameAlleles } from './split-sites.js';

/**
 * How the sites of a file were read:
 *  - as_listed: only the lines of the file are genotypes (chip exports, all-sites VCFs);
 *  - variants_only: a VCF listing only non-reference sites; every unlisted marker on a
 *    chromosome the file covers is read as homozygous for the reference allele;
 *  - reference_blocks: a gVCF; markers inside its reference blocks are read as REF/REF.
 */
type SiteReading = 'as_listed' | 'variants_only' | 'reference_blocks';

/**
 * The share of the index's markers with a known REF that a whole genome lists as variants:
 * 1 − (1 − ALT frequency)², averaged over them, is 42–47 % in each 1000 Genomes
 * super-population (resources/catalog/kg-frequencies.json.gz; test/parser/sequencing.test.ts
 * recomputes it). A variants-only file listing under a quarter of the lowest covers only
 * part of the genome: an exome, a gene panel, a chip file converted to VCF.
 */
export const WHOLE_GENOME_LISTED_SHARE = { low: 0.42, high: 0.47 } as const;
export const PARTIAL_GENOME_LISTED_SHARE = 0.1;

/** A VCF with at least this many non-reference calls and almost no REF/REF calls lists variants only. */
const MIN_VARIANT_CALLS = 20;
const MAX_HOM_REF_SHARE = 0.01;
/**
 * So does one whose lines at SNP markers' positions are nearly all non-reference: a caller
 * may also list the reference calls it weighed (DeepVariant's RefCall lines), but a file of
 * every site is REF/REF at 53–58 % of the markers (1 − WHOLE_GENOME_LISTED_SHARE).
 */
const MIN_MARKER_VARIANT_CALLS = 50;
const MAX_MARKER_HOM_REF_SHARE = 0.1;

const POS_SCALE = 2 ** 32;
const UNKNOWN = 0;

interface BuildHits {
  build: IndexedBuild;
  /** The call found for each index row (0 = none yet). */
  call: Uint8Array;
  /** 1 when a line (or a reference block) of the file sits at the row's position. */
  listed: Uint8Array;
  /**
   * Lines placing the file in this build (at a marker's position, the marker's expected REF
   * or its own rsID) / at a marker's position with another REF and rsID.
   */
  refAgrees: number;
  refDisagrees: number;
  hits: number;
  /** Indel markers a record at a position may hold (indelWindows): key (chrom · 2³² + position) → rows. */
  indelAt: Map<number, number[]>;
  /** 1 where the row's call came from a record beginning before the marker (a record at the marker replaces it). */
  callFromBefore: Uint8Array;
  /** Indel records at an indel marker that carry another allele than the marker's. */
  indelMismatches: number;
  /** Lines read at a SNP marker's position: REF/REF calls, and calls with a non-reference allele. */
  markerHomRef: number;
  markerVariant: number;
  /** Lines read into the call of an earlier line at the same marker (a multi-allelic site written one ALT a line). */
  merged: number;
}

/** indelSite()'s answer for a record whose rsID is not an indel marker with known alleles here. */
export const NOT_AN_INDEL_MARKER = -1;
/** indelSite()'s answer for a record of the marker's rsID whose alleles are not the marker's: not read. */
export const INDEL_NOT_READ = -2;

export interface SiteOutcome {
  build: IndexedBuild | null;
  /** The build the REFs at the markers' positions clearly agree with, or null when they say nothing clear. */
  contentsBuild: IndexedBuild | null;
  reading: SiteReading;
  /** Why the reading was chosen: "contents", "header", "person" (a confirmation), or "default". */
  readingFrom: 'contents' | 'header' | 'person' | 'default';
  /** Markers taken from a line by position (no rsID, or another rsID than the catalog's). */
  matchedByPosition: number;
  /** Markers read as REF/REF because the file does not list them (variants-only) or a block covers them. */
  readAsReference: number;
  /** Calls by position set aside as one-sided (withoutOneSidedCalls); the rsID-matched ones are counted there. */
  setAside: number;
  /**
   * Of the markers with a known REF on the chromosomes the file covers, the share it has a
   * line at (WHOLE_GENOME_LISTED_SHARE for a whole genome's variants); null when none.
   */
  listedShare: number | null;
  /** Lines without an rsID at a site Traitscope does not use. */
  unusedSites: number;
  /** Lines at an indexed position whose REF is not the expected one (another build or allele). */
  refMismatches: number;
  /** Indel lines at an indel marker carrying an allele other than the marker's: not read as it. */
  indelMismatches: number;
  /** Counted calls, for the notes: REF/REF, and with a non-reference allele. */
  homRefCalls: number;
  variantCalls: number;
  /** The same, of the lines at SNP markers' positions in the file's build. */
  markerHomRefCalls: number;
  markerVariantCalls: number;
  /** The contents told variants only from the lines at the markers (the file lists reference calls too). */
  toldByMarkers: boolean;
  /** Lines read by position into the call of an earlier line at the same marker (split-sites.ts). */
  mergedSplitLines: number;
}

/**
 * Agreeing REF checks (net of disagreeing ones) that settle a file's build, and how far they
 * must lead the other build's: a line in the wrong build lands on a marker's position by
 * chance only (some 70,000 markers in 3.1 billion positions: one line in 40,000) and then
 * names the marker's REF about one time in four, so a lead this clear is not chance. The
 * header's build is taken while the contents say nothing clear; contents this clear
 * overrule it (a header left stale by a liftover tool).
 */
const SETTLE_SCORE = 8;
const SETTLE_LEAD = 4;
/** Without a build in the header, the weaker lead that decides at the end of the file. */
const FINAL_SCORE = 3;
const FINAL_LEAD = 2;

export class SiteMatcher {
  /** The builds the file's positions may still be in: both until the contents settle it (settleBuild). */
  private perBuild: BuildHits[];
  /** The build the file's REFs clearly agree with, once they do. */
  private contentsBuild: IndexedBuild | null = null;
  private readonly chromSeen = new Uint8Array(32);
  private homRefCalls = 0;
  private variantCalls = 0;
  private blocks = 0;
  /** Reference blocks read so far (a gVCF's). */
  get referenceBlocks(): number {
    return this.blocks;
  }
  private unusedSites = 0;
  /** site() counted the record just read as unused (indelSite() may still use it). */
  private lastSiteUnused = false;
  /** VCF records read as sites (used or not). */
  sitesRead = 0;

  constructor(
    private readonly index: PositionIndex,
    /** The build the header names: taken unless the contents clearly say otherwise. */
    private readonly headerBuild: Build | null,
    /** The header says this is a gVCF (a <NON_REF> allele is declared). */
    private readonly gvcfHeader: boolean,
    /** The header declares INFO's END: a record without ALT may be a reference block (vcf.ts). */
    readonly blocksWithoutAlt = false,
  ) {
    // Both builds, whatever the header says: a header can be wrong (a liftover tool keeps the
    // original's ##reference line), and the REFs at the markers' positions tell.
    const builds: IndexedBuild[] = [37, 38];
    this.perBuild = builds.map((build) => ({
      build,
      call: new Uint8Array(index.size),
      listed: new Uint8Array(index.size),
      refAgrees: 0,
      refDisagrees: 0,
      hits: 0,
      indelAt: prepared(index, build).indelAt,
      callFromBefore: new Uint8Array(index.size),
      indelMismatches: 0,
      markerHomRef: 0,
      markerVariant: 0,
      merged: 0,
    }));
  }

  /**
   * One VCF record: its site, REF bytes [refStart, refEnd), the call (0 for a no-call), the
   * rsID it carries (-1 for none) and whether the GT holds a non-reference allele.
   */
  site(
    chrom: number,
    pos: number,
    buf: Uint8Array,
    refStart: number,
    refEnd: number,
    call: number,
    rsid: number,
    nonRef: boolean,
    homRef: boolean,
  ): void {
    this.sitesRead++;
    this.chromSeen[chrom] = 1;
    if (nonRef) this.variantCalls++;
    else if (homRef) this.homRefCalls++;
    const key = chrom * POS_SCALE + pos;
    let used = false;
    for (const b of this.perBuild) {
      const keys = b.build === 37 ? this.index.key37 : this.index.key38;
      const order = b.build === 37 ? this.index.order37 : this.index.order38;
      let atMarker = false;
      for (let j = lowerBoundAt(this.index, b.build, chrom, pos); j < keys.length && keys[j] === key; j++) {
        const row = order[j];
        const expected = this.index.ref[row];
        // The marker's own rsID at its position places the file in this build whatever the
        // REF (a file converted without a reference genome, as PLINK's, names the person's
        // allele): the line is read by its rsID, never counted as a mismatch.
        const own = this.index.rsid[row] === rsid;
        if (!own && expected !== UNKNOWN && ALLELE_FROM_BYTE[buf[refStart]] !== expected) {
          b.refDisagrees++;
          continue;
        }
        if (own || expected !== UNKNOWN) b.refAgrees++;
        used = true;
        b.listed[row] = 1;
        // An indel marker is read by indelSite(), from indel records only.
        if (this.index.indels.has(row)) continue;
        atMarker = true;
        // The call is 0 unless every called allele is REF or a SNV here (vcf.ts snvCall): an indel anchored here says nothing of a SNP.
        if (call === 0 || own) continue;
        if (b.call[row] === 0) {
          b.call[row] = call;
          b.hits++;
        } else if (!sameAlleles(b.call[row], call)) {
          // Another ALT of the same site, written on a line of its own (split-sites.ts); else the first call stays.
          const merged = mergeSplitCalls(b.call[row], call, ALLELE_FROM_BYTE[buf[refStart]]);
          if (merged !== 0) {
            b.call[row] = merged;
            b.merged++;
          }
        }
      }
      if (atMarker && nonRef) b.markerVariant++;
      else if (atMarker && homRef) b.markerHomRef++;
    }
    this.lastSiteUnused = !used && rsid < 0;
    if (this.lastSiteUnused) this.unusedSites++;
  }

  /**
   * A VCF record read at the indel markers whose windows cover its site (indels.ts): alleles
   * [starts[k], ends[k]) of buf, REF first, and the called allele indices k1, k2 (k2 -1 when
   * haploid). A marker taken by position gets the codes of its alleles (indels.ts
   * indelAlleleCode: D/I, or for a marker with several ALTs the defined-allele codes) when
   * every called allele is one of its own; another allele is counted and never read as the
   * marker. A record beginning before the marker's position says what the marker holds only
   * where no record at the marker does: in a VCF, the REF allele of a record overlapping
   * another is not a statement about the other's site. For
   * the record's own rsID the answer is returned instead: the call to store, INDEL_NOT_READ,
   * or NOT_AN_INDEL_MARKER (the record is read as before).
   */
  indelSite(
    chrom: number,
    pos: number,
    buf: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    alleles: number,
    k1: number,
    k2: number,
    rsid: number,
  ): number {
    const key = chrom * POS_SCALE + pos;
    let own = NOT_AN_INDEL_MARKER;
    let recordAlleles: string[] | null = null;
    for (const b of this.perBuild) {
      const rows = b.indelAt.get(key);
      if (!rows) continue;
      recordAlleles ??= Array.from({ length: alleles }, (_, k) =>
        String.fromCharCode(...buf.subarray(starts[k], ends[k])),
      );
      for (const row of rows) {
        const d = this.index.indels.get(row)!;
        const markerPos = b.build === 37 ? this.index.pos37[row] : this.index.pos38[row];
        const window = b.build === 37 ? d.window37 : d.window38;
        const r = readIndelRecord(markerPos, window, d.ref, d.alts, pos, recordAlleles, k1, k2);
        if (r.kind === 'not_indel') continue;
        if (pos === markerPos) {
          if (r.kind === 'ref_differs') b.refDisagrees++;
          else b.refAgrees++;
        }
        if (r.kind === 'ref_differs') continue;
        b.listed[row] = 1;
        if (this.lastSiteUnused) {
          // A record shifted into the window is at no marker's position, but it is used.
          this.unusedSites--;
          this.lastSiteUnused = false;
        }
        let call = INDEL_NOT_READ;
        if (r.kind === 'other_allele') b.indelMismatches++;
        else {
          const first = indelAlleleCode(d.ref, d.alts, r.first);
          const second = r.second < 0 ? 0 : indelAlleleCode(d.ref, d.alts, r.second);
          // An allele beyond the codes there are: its rsID record is read as before.
          call = first === 0 || (r.second >= 0 && second === 0) ? NOT_AN_INDEL_MARKER : (first << 4) | second;
        }
        if (this.index.rsid[row] === rsid) {
          own = call;
          continue;
        }
        const before = pos < markerPos;
        if (call < 0 || (b.call[row] !== 0 && (before || b.callFromBefore[row] === 0))) continue;
        if (b.call[row] === 0) b.hits++;
        b.call[row] = call;
        b.callFromBefore[row] = before ? 1 : 0;
      }
    }
    return own;
  }

  /**
   * The index's keys of each build the file may be in, for the WebAssembly loop's cursors
   * (wasm/core.c), with every position of the indel markers' windows: the loop hands the
   * records there to the TypeScript reader.
   */
  buildKeys(): Float64Array[] {
    return this.perBuild.map((b) => prepared(this.index, b.build).keys);
  }

  /**
   * What the WebAssembly loop read: records at no marker's position, counted as site()
   * counts them (sites read, REF/REF and variant calls, sites without an rsID left unused),
   * and the chromosomes they were on.
   */
  addLoopSites(sitesRead: number, unused: number, homRef: number, variant: number, chromSeen: Uint8Array): void {
    this.sitesRead += sitesRead;
    this.unusedSites += unused;
    this.homRefCalls += homRef;
    this.variantCalls += variant;
    for (let c = 0; c < chromSeen.length; c++) this.chromSeen[c] |= chromSeen[c];
  }

  /** A line at a site no marker uses (an unplaced contig). */
  unusedSite(): void {
    this.sitesRead++;
    this.unusedSites++;
  }

  /** A gVCF reference block [start, end] with a REF/REF call: its markers read as REF/REF. */
  referenceBlock(chrom: number, start: number, end: number): void {
    this.sitesRead++;
    this.chromSeen[chrom] = 1;
    this.blocks++;
    const last = chrom * POS_SCALE + end;
    for (const b of this.perBuild) {
      const keys = b.build === 37 ? this.index.key37 : this.index.key38;
      const order = b.build === 37 ? this.index.order37 : this.index.order38;
      for (let j = lowerBoundAt(this.index, b.build, chrom, start); j < keys.length && keys[j] <= last; j++) {
        const row = order[j];
        if (b.listed[row]) continue;
        b.listed[row] = 1;
        const ref = this.index.ref[row];
        if (ref === UNKNOWN) continue;
        b.call[row] = referenceCall(ref, chrom);
        b.hits++;
      }
    }
  }

  /**
   * Once the REFs read so far clearly agree with one build, drops the other, so the rest of
   * the file is looked up in one build only. Returns the position of the build kept in
   * buildKeys()'s order (the WebAssembly loop drops the other's cursor), or -1.
   */
  settleBuild(): number {
    if (this.perBuild.length !== 2) return -1;
    const lead = this.leader(SETTLE_SCORE, SETTLE_LEAD);
    if (!lead) return -1;
    const kept = this.perBuild.indexOf(lead);
    this.perBuild = [lead];
    this.contentsBuild = lead.build;
    return kept;
  }

  /** The build whose REF checks score at least `min` and more than `lead` times the other's, if one does. */
  private leader(min: number, lead: number): BuildHits | null {
    const score = (x: BuildHits) => x.refAgrees - x.refDisagrees;
    for (const x of this.perBuild) {
      const other = this.perBuild.find((y) => y !== x);
      if (score(x) >= min && score(x) > lead * Math.max(other ? score(other) : 0, 0)) return x;
    }
    return null;
  }

  /**
   * The build the positions are in: the one the contents settled on; else the header's; else,
   * without one, the build the REFs lean to at the end.
   */
  private chooseBuild(): BuildHits | null {
    this.settleBuild();
    if (this.perBuild.length === 1) return this.perBuild[0];
    const header = this.perBuild.find((b) => b.build === this.headerBuild);
    if (header) return header;
    if (this.headerBuild !== null) return null; // GRCh36: no positions to match
    const lead = this.leader(FINAL_SCORE, FINAL_LEAD);
    this.contentsBuild = lead?.build ?? null;
    return lead;
  }

  /**
   * The reading the contents suggest: a gVCF's blocks, or variants only when there are almost
   * no REF/REF calls among many variants, in the whole file or at the markers' positions in
   * the file's build.
   */
  private detectedReading(chosen: BuildHits | null): { reading: SiteReading; toldByMarkers: boolean } {
    if (this.gvcfHeader || this.blocks > 0) return { reading: 'reference_blocks', toldByMarkers: false };
    const called = this.homRefCalls + this.variantCalls;
    if (this.variantCalls >= MIN_VARIANT_CALLS && this.homRefCalls <= called * MAX_HOM_REF_SHARE)
      return { reading: 'variants_only', toldByMarkers: false };
    const atMarkers = chosen ? chosen.markerHomRef + chosen.markerVariant : 0;
    if (
      chosen &&
      chosen.markerVariant >= MIN_MARKER_VARIANT_CALLS &&
      chosen.markerHomRef <= atMarkers * MAX_MARKER_HOM_REF_SHARE
    )
      return { reading: 'variants_only', toldByMarkers: true };
    return { reading: 'as_listed', toldByMarkers: false };
  }

  /** How many markers of the index have a position in a build, of how many. */
  placedIn(build: IndexedBuild): { placed: number; markers: number } {
    const pos = build === 37 ? this.index.pos37 : this.index.pos38;
    let placed = 0;
    for (let row = 0; row < this.index.size; row++) if (pos[row] > 0) placed++;
    return { placed, markers: this.index.size };
  }

  /** The genotype without the one-sided calls its rsIDs matched (withoutOneSidedCalls), when the reading needs REFs. */
  setAsideOneSided(genotype: Genotype, outcome: SiteOutcome): OneSidedSetAside {
    if (outcome.reading === 'as_listed' || outcome.build === null) return { genotype, setAside: 0, outsideIndex: 0 };
    return withoutOneSidedCalls(genotype, this.index, outcome.build);
  }

  /**
   * Adds the markers found by position, and (variants_only) the unlisted markers of the
   * covered chromosomes as REF/REF, to the collector. `confirmed` is the person's answer
   * when they were asked (true: read as variants-only; false: as listed).
   */
  finish(out: GenotypeCollector, confirmed: boolean | undefined): SiteOutcome {
    const chosen = this.chooseBuild();
    const { reading: detected, toldByMarkers } = this.detectedReading(chosen);
    let reading = detected;
    let readingFrom: SiteOutcome['readingFrom'] = detected === 'as_listed' ? 'default' : 'contents';
    if (detected === 'reference_blocks' && this.gvcfHeader) readingFrom = 'header';
    if (confirmed !== undefined && detected !== 'reference_blocks') {
      reading = confirmed ? 'variants_only' : 'as_listed';
      readingFrom = 'person';
    }
    let matchedByPosition = 0;
    let readAsReference = 0;
    let setAside = 0;
    let covered = 0;
    let listedCovered = 0;
    if (chosen) {
      const { call, listed, build } = chosen;
      const pos = build === 37 ? this.index.pos37 : this.index.pos38;
      const { rsid, chrom, ref } = this.index;
      for (let row = 0; row < this.index.size; row++) {
        if (pos[row] > 0 && ref[row] !== UNKNOWN && this.chromSeen[chrom[row]] === 1) {
          covered++;
          listedCovered += listed[row];
        }
        if (call[row] !== 0) {
          if (reading !== 'as_listed' && oneSided(this.index, pos, row)) {
            setAside++;
            continue;
          }
          out.add(rsid[row], call[row], chrom[row], pos[row]);
          matchedByPosition++;
        } else if (
          reading === 'variants_only' &&
          listed[row] === 0 &&
          pos[row] > 0 &&
          ref[row] !== UNKNOWN &&
          this.chromSeen[chrom[row]] === 1
        ) {
          out.add(rsid[row], referenceCall(ref[row], chrom[row]), chrom[row], pos[row]);
          readAsReference++;
        }
      }
      if (reading === 'reference_blocks') {
        // Block hits were counted as matches above; report them as read from the blocks.
        for (let row = 0; row < this.index.size; row++)
          if (call[row] !== 0 && listed[row] === 1 && isReferenceCall(call[row], ref[row])) readAsReference++;
        matchedByPosition -= readAsReference;
      }
    }
    const refMismatches = chosen ? chosen.refDisagrees : 0;
    const indelMismatches = chosen ? chosen.indelMismatches : 0;
    return {
      build: chosen?.build ?? null,
      contentsBuild: this.contentsBuild,
      reading,
      readingFrom,
      matchedByPosition,
      readAsReference,
      setAside,
      listedShare: covered > 0 ? listedCovered / covered : null,
      unusedSites: this.unusedSites,
      refMismatches,
      indelMismatches,
      homRefCalls: this.homRefCalls,
      variantCalls: this.variantCalls,
      markerHomRefCalls: chosen?.markerHomRef ?? 0,
      markerVariantCalls: chosen?.markerVariant ?? 0,
      toldByMarkers: reading === 'variants_only' && readingFrom === 'contents' && toldByMarkers,
      mergedSplitLines: chosen?.merged ?? 0,
    };
  }
}

/** What a parse needs of the index in one build, derived from it alone: the same for every file. */
interface PreparedBuild {
  indelAt: Map<number, number[]>;
  keys: Float64Array;
}

/**
 * Made once per index and build, not per file: merging and sorting ~69,000 keys cost a VCF
 * parse ~12 ms before its first line. Read only (the WebAssembly core copies the keys).
 */
const preparedBuilds = new WeakMap<PositionIndex, Map<IndexedBuild, PreparedBuild>>();

function prepared(index: PositionIndex, build: IndexedBuild): PreparedBuild {
  let builds = preparedBuilds.get(index);
  if (!builds) preparedBuilds.set(index, (builds = new Map<IndexedBuild, PreparedBuild>()));
  let p = builds.get(build);
  if (!p) {
    const indelAt = indelWindows(index, build);
    builds.set(build, (p = { indelAt, keys: keysWithIndelWindows(index, build, indelAt) }));
  }
  return p;
}

/** The index's sorted keys of a build with every position of the indel markers' windows merged in. */
function keysWithIndelWindows(index: PositionIndex, build: IndexedBuild, indelAt: Map<number, number[]>): Float64Array {
  const keys = build === 37 ? index.key37 : index.key38;
  if (indelAt.size === 0) return keys;
  const all = new Float64Array(keys.length + indelAt.size);
  all.set(keys);
  let n = keys.length;
  for (const key of indelAt.keys()) all[n++] = key;
  all.sort();
  let unique = 0;
  for (let j = 0; j < all.length; j++) if (j === 0 || all[j] !== all[j - 1]) all[unique++] = all[j];
  return all.slice(0, unique);
}

/**
 * Every position a record of each indel marker may begin at in a build → the markers' rows:
 * the INDEL_LOOKBEHIND positions before the marker and its window.
 */
function indelWindows(index: PositionIndex, build: IndexedBuild): Map<number, number[]> {
  const at = new Map<number, number[]>();
  for (const d of index.indels.values()) {
    const pos = build === 37 ? index.pos37[d.row] : index.pos38[d.row];
    const window = build === 37 ? d.window37 : d.window38;
    if (pos === 0 || window === '') continue;
    for (let p = Math.max(1, pos - INDEL_LOOKBEHIND); p < pos + window.length; p++) {
      const key = index.chrom[d.row] * POS_SCALE + p;
      const rows = at.get(key);
      if (rows) rows.push(d.row);
      else at.set(key, [d.row]);
    }
  }
  return at;
}

/**
 * Whether a marker of a variants-only file or a gVCF could only be read where the person
 * carries a variant: its REF is not known in the file's build, so where it is REF/REF the
 * marker is missing. Drug–gene positions are exempt: their caller treats a missing
 * position as a no-call.
 */
function oneSided(index: PositionIndex, pos: Uint32Array, row: number): boolean {
  return (pos[row] === 0 || index.ref[row] === UNKNOWN) && !isDrugGeneDefined(index, row);
}

/** What withoutOneSidedCalls kept, and the two kinds of call it set aside. */
export interface OneSidedSetAside {
  genotype: Genotype;
  /** Calls at markers of the index whose REF is not known in the file's build (oneSided). */
  setAside: number;
  /** Calls at rsIDs the index does not hold: sites no built-in result reads. */
  outsideIndex: number;
}

/**
 * Sets aside the one-sided calls that rsIDs matched: kept, they would count a person's
 * variants and miss their reference calls, and a score resting on them would lean towards
 * its ALT alleles. These are the index's markers without a known REF (above), and every
 * rsID outside the index: no REF is known there, and a score imported later would be
 * matched to them by rsID. Returns the genotype of the rest, moving its arrays' contents (a
 * parse's own genotype only).
 */
export function withoutOneSidedCalls(genotype: Genotype, index: PositionIndex, build: IndexedBuild): OneSidedSetAside {
  const pos = build === 37 ? index.pos37 : index.pos38;
  const { rsids, calls, chroms, positions } = genotype;
  // Both lists ascend by rsID: one merge. A whole genome's file lists millions of rsIDs and
  // keeps tens of thousands, so the kept calls move down one by one, in place (fresh arrays
  // for millions of markers cost their page faults).
  let to = 0;
  let setAside = 0;
  let row = 0;
  for (let i = 0; i < rsids.length; i++) {
    const rsid = rsids[i];
    while (row < index.size && index.rsid[row] < rsid) row++;
    if (row === index.size || index.rsid[row] !== rsid) continue;
    if (oneSided(index, pos, row)) {
      setAside++;
      continue;
    }
    if (to !== i) {
      rsids[to] = rsid;
      calls[to] = calls[i];
      chroms[to] = chroms[i];
      positions[to] = positions[i];
    }
    to++;
  }
  const outsideIndex = rsids.length - to - setAside;
  if (to === rsids.length) return { genotype, setAside: 0, outsideIndex: 0 };
  const kept: Genotype = {
    rsids: rsids.subarray(0, to),
    calls: calls.subarray(0, to),
    chroms: chroms.subarray(0, to),
    positions: positions.subarray(0, to),
  };
  return { genotype: kept, setAside, outsideIndex };
}

/** REF/REF, haploid on Y and MT (as chip exports write them). */
function referenceCall(ref: number, chrom: number): number {
  return chrom === CHROM_Y || chrom === CHROM_MT ? makeCall(ref, 0) : makeCall(ref, ref);
}

function isReferenceCall(call: number, ref: number): boolean {
  return call >> 4 === ref && ((call & 0xf) === ref || (call & 0xf) === 0);
}
