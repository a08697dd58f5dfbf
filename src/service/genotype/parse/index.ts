/**
 * The genotype file parser: file (or bytes) in, sorted columnar Genotype and a summary
 * out. Never throws: every failure comes back as {ok:false, reason} with a sentence that
 * says what was wrong and how to fix it. Reads in chunks, so memory stays bounded
 * whatever the file's size; runs inside the processing worker thread.
 *
 * Pipeline: source → [zip member | gzip → tar member] → text (BOM, UTF-16) → lines →
 * format detection on the first lines → byte-level line parser → collector → sort and
 * deduplicate → build and sex inference → summary.
 */
import type { ParseResult, ParseSummary } from '../types.js';
import type { PositionIndex } from '../positions.js';
import { buildFromPositions } from './build.js';
import { formatBytes } from '../../../shared/format-bytes.js';
import { isZip, route, type ContainerContext } from './containers.js';
import { ParseError, fail } from './errors.js';
import { LineSplitter } from './lines.js';
import { refuseNonGenotypeContent, refuseTwoPeople } from './nongenome.js';
import { PARTIAL_GENOME_LISTED_SHARE, WHOLE_GENOME_LISTED_SHARE, type SiteOutcome } from './sites.js';
import { inferSex } from './sex.js';
import { bytesSource, fillAt, openFileSource, readAt, readRange, type ByteSource } from './source.js';
import { TextDecoderStage } from './text.js';
import { MAX_LINE_BYTES, TextGenotypeParser } from './textparser.js';
import { chooseMember, listZip, otherMembersNote, zipMember } from './zip.js';

export interface ParseOptions {
  /** Most bytes any decompression may produce before the file is refused (default 2 GiB). */
  maxDecompressedBytes?: number;
  /** Most markers a file may have before it is refused (default DEFAULT_MAX_MARKERS, 10 million: parse memory stays under 400 MiB). */
  maxMarkers?: number;
  /**
   * The markers' positions in both builds (resources/catalog/positions.bin): with it, VCF
   * lines are also matched by position, and variants-only VCFs and gVCF blocks are read.
   * A function is called only when the file is a VCF: other files never need the index.
   */
  positionIndex?: PositionIndex | (() => PositionIndex);
  /**
   * The person's answer on how to read a VCF's unlisted sites: true, it lists variants
   * only (unlisted markers are REF/REF); false, it lists every site it read. Undefined:
   * decided from the file (sites.ts).
   */
  variantsOnly?: boolean;
  /** The sample column of a VCF of several people to read, by name (default: the first). */
  vcfSample?: string;
}

/** Known markers (build.ts) whose positions it takes to overrule the build a header names. */
const HEADER_OVERRULED_BY = 3;

export const DEFAULT_MAX_DECOMPRESSED_BYTES = 2 * 1024 * 1024 * 1024;

export async function parseGenotypeFile(path: string, options?: ParseOptions): Promise<ParseResult> {
  const started = performance.now();
  let src: ByteSource;
  try {
    src = await openFileSource(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    const why =
      code === 'ENOENT'
        ? 'it does not exist'
        : code === 'EISDIR'
          ? 'it is a folder, not a file'
          : code === 'ENOTFILE'
            ? 'it is not a regular file'
            : code === 'EACCES'
              ? 'permission was denied'
              : 'it could not be opened';
    return { ok: false, reason: `The genotype file could not be read: ${why}. Upload the file again.` };
  }
  try {
    return await parseSource(src, options, started);
  } finally {
    await src.close().catch(() => undefined);
  }
}

/** The same parser over bytes already in memory (tests, small uploads). */
export async function parseGenotypeBytes(bytes: Uint8Array, options?: ParseOptions): Promise<ParseResult> {
  return parseSource(bytesSource(bytes), options, performance.now());
}

/** The same parser over any random-access source (tests feed synthetic gigabyte streams). */
export async function parseGenotypeSource(src: ByteSource, options?: ParseOptions): Promise<ParseResult> {
  return parseSource(src, options, performance.now());
}

export type { ByteSource };
export { fillAt, readAt };
export { releaseIdleCore as releaseParserMemory } from './wasm/core.js';

async function parseSource(src: ByteSource, options: ParseOptions | undefined, started: number): Promise<ParseResult> {
  try {
    return await run(src, options, started);
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, reason: e.message };
    if (e instanceof RangeError && /allocation|memory|Array buffer/i.test(e.message))
      return {
        ok: false,
        reason: 'The file is too large to read into memory. Upload the raw data download from your testing company.',
      };
    const detail = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      reason: `The file could not be read because of an unexpected error (${detail}). Please report this, with the kind of file you uploaded.`,
    };
  }
}

async function run(src: ByteSource, options: ParseOptions | undefined, started: number): Promise<ParseResult> {
  if (src.size === 0) fail('The file is empty (0 bytes). Upload the raw data file from your testing company.');
  const parser = new TextGenotypeParser(options?.maxMarkers, options?.positionIndex ?? null, options?.vcfSample);
  try {
    return await readGenotype(src, options, started, parser);
  } finally {
    parser.collector.handBack();
  }
}

async function readGenotype(
  src: ByteSource,
  options: ParseOptions | undefined,
  started: number,
  parser: TextGenotypeParser,
): Promise<ParseResult> {
  const text = new TextDecoderStage(new LineSplitter(parser, MAX_LINE_BYTES));
  const ctx: ContainerContext = {
    layers: [],
    maxDecompressedBytes: options?.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES,
    decompressed: 0,
    notes: [],
  };

  const head = await src.read(0, 4);
  if (head[0] === 0x1f && head[1] === 0x8b && src.growing) {
    // The trailer arrives last: guess from the usual compression of these files instead.
    ctx.expectedTextBytes = src.size * 3;
  } else if (head[0] === 0x1f && head[1] === 0x8b && src.size >= 18) {
    // A gzip trailer states the (last member's) uncompressed size: a hint for sizing only.
    const t = await src.read(src.size - 4, 4);
    ctx.expectedTextBytes = (t[0] | (t[1] << 8) | (t[2] << 16) | (t[3] << 24)) >>> 0;
    // Less text than compressed bytes: the last member is BGZF's empty end-of-file member (or
    // one small member of many), which says nothing of the whole; guess as for an upload.
    if (ctx.expectedTextBytes < src.size) ctx.expectedTextBytes = src.size * 3;
  } else if (!isZip(head)) ctx.expectedTextBytes = src.size;
  if (ctx.expectedTextBytes !== undefined) parser.expectTextBytes(ctx.expectedTextBytes);
  try {
    if (isZip(head)) {
      ctx.layers.push('zip');
      const entries = await listZip(src);
      const member = chooseMember(entries);
      ctx.expectedTextBytes = member.size;
      parser.expectTextBytes(member.size);
      await route(zipMember(src, member, ctx), ctx, 1, text);
      const others = otherMembersNote(entries, member);
      if (others) ctx.notes.push(others);
    } else {
      // Neither gzip nor zip: plain text (or a tar of it), parsed as it comes, so the read buffers take turns.
      const plain = !(head[0] === 0x1f && head[1] === 0x8b);
      await route(readRange(src, 0, src.size, plain, parser.collector.reader), ctx, 0, text);
    }
  } catch (e) {
    // Past the text limit, a file already read as a VCF is a real one, not a bomb: say what it is.
    if (e instanceof ParseError && ctx.decompressed > ctx.maxDecompressedBytes && parser.detection?.kind === 'vcf')
      fail(vcfTooLarge(ctx.maxDecompressedBytes, parser));
    throw e;
  }
  parser.finish();

  const detection = parser.detection!;
  const sites = parser.sites?.finish(parser.collector, options?.variantsOnly) ?? null;
  const linesRead = parser.collector.length;
  const collected = parser.collector.finish();
  const { duplicates, conflicting, merged, noCalls, sex } = collected;
  // Before the one-sided calls are set aside: whether two people's calls conflict is a
  // share of every marker the file had.
  const markersCollected = collected.genotype.rsids.length;
  const oneSided = sites
    ? parser.sites!.setAsideOneSided(collected.genotype, sites)
    : { genotype: collected.genotype, setAside: 0, outsideIndex: 0 };
  const genotype = oneSided.genotype;
  const setAside = {
    unknown_reference: (sites?.setAside ?? 0) + oneSided.setAside,
    outside_index: oneSided.outsideIndex,
  };
  if (genotype.rsids.length === 0) {
    const dropped = setAside.unknown_reference + setAside.outside_index;
    if (dropped > 0)
      fail(
        (dropped === 1
          ? "This file's one call could not be kept: the file was read as listing only the sites where you differ from the reference genome, and the call sits at a site"
          : `None of this file's ${dropped.toLocaleString('en-US')} calls could be kept: the file was read as listing only the sites where you differ from the reference genome, and they sit at sites`) +
          ' whose reference allele Traitscope does not know, where a call that matches the reference could not be read. ' +
          'If the file lists every site that was called, process it again with variants_only=false.',
      );
    if (sites && sites.unusedSites + sites.refMismatches > 0)
      fail(
        sites.build === null && sites.refMismatches === 0
          ? 'No usable genotype lines found: the lines have no rsIDs, and their positions could not be placed in GRCh37 or GRCh38 because the header names no build and no line sits at a known marker. Export the VCF with its full header (##reference or ##contig lines), or with rsIDs.'
          : `No usable genotype lines found: the lines have no rsIDs, and none of their positions is one of the markers Traitscope reads (GRCh${sites.build ?? '37/38'}). Export the VCF with rsIDs, or the raw data of a genotyping test.`,
      );
    const withoutGt = parser.vcfLinesWithoutGt;
    if (withoutGt > 0 && withoutGt === parser.skips.total())
      fail(
        "No genotype calls found: this VCF's records have no GT (genotype) field in their FORMAT column, so they say which variants were seen but not what you carry. " +
          'Export the VCF with genotypes (GT), as variant callers write it.',
      );
    const skipped = parser.skips.byReason();
    const nonRs = skipped.non_rs_id ?? 0;
    if (nonRs > 0 && nonRs === parser.skips.total())
      fail(
        'No usable genotype lines found: none of the markers has an rsID (identifiers beginning with "rs"). Traitscope needs rsIDs; export the raw data with rsIDs.',
      );
    fail(
      'No genotype lines found: expected rsid, chromosome, position and genotype columns. ' +
        'Is this the raw data download from your testing company?',
    );
  }

  refuseNonGenotypeContent({
    linesRead,
    skipped: parser.skips.total(),
    foreign: parser.skips.foreign,
    calls: genotype.calls,
  });
  refuseTwoPeople(conflicting, markersCollected);
  const binaryTail = text.binaryFrom < 0 ? 0 : text.textBytes - text.binaryFrom;
  if (binaryTail * 2 > text.textBytes)
    fail(
      `Most of this file (${formatBytes(binaryTail)} of ${formatBytes(text.textBytes)}) is binary data, not text: it is damaged or not a genotype file. ` +
        'Upload the raw data download from your testing company.',
    );

  const snpCount = genotype.rsids.length;
  const notes = [...ctx.notes, ...detection.notes];
  if (binaryTail > 0)
    notes.push(
      `The last ${formatBytes(binaryTail)} of the file are binary data, not text (from byte ${text.binaryFrom.toLocaleString('en-US')} on); ` +
        'the lines there were skipped. The file may be damaged or have something appended: download it again if markers are missing.',
    );
  // The positions are the file's own statement of its build; a header can be stale (a liftover
  // tool keeps the original's lines). Against a header, known markers count from three on.
  const header = detection.headerBuild;
  const byMarkers = buildFromPositions(genotype, header ? HEADER_OVERRULED_BY : 1);
  const fromPositions = byMarkers ?? sites?.contentsBuild ?? (header ? null : (sites?.build ?? null));
  let build = header ?? fromPositions;
  let buildSource: ParseSummary['build_source'] = header ? 'header' : build ? 'positions' : null;
  if (header && fromPositions && fromPositions !== header) {
    build = fromPositions;
    buildSource = 'positions';
    const evidence = byMarkers
      ? 'known markers sit at their build ' + fromPositions + ' positions'
      : 'the reference alleles at the markers agree with build ' + fromPositions;
    notes.push(
      `The header names build ${header}, but the positions in the file are build ${fromPositions} (${evidence}); they were read as build ${fromPositions}.`,
    );
  } else if (header) {
    const few = buildFromPositions(genotype);
    if (few && few !== header)
      notes.push(
        `The header names build ${header}, but the few known markers in the file match build ${few}; too few to overrule the header, so build ${header} was kept.`,
      );
  }
  if (duplicates > 0)
    notes.push(
      `${duplicates.toLocaleString('en-US')} duplicate ${duplicates === 1 ? 'line' : 'lines'}: for each rsID the first occurrence with a call was kept.`,
    );
  if (conflicting > 0)
    notes.push(
      `${conflicting.toLocaleString('en-US')} ${conflicting === 1 ? 'rsID' : 'rsIDs'} appeared more than once with different calls; the first called occurrence was kept.`,
    );
  const mergedLines = merged + (sites?.mergedSplitLines ?? 0);
  if (mergedLines > 0)
    notes.push(
      `${mergedLines.toLocaleString('en-US')} ${mergedLines === 1 ? 'line was' : 'lines were'} read together with the line before at the same site and reference allele: ` +
        'a site with more than one alternate allele written one allele a line (as bcftools norm -m- splits it), where each line alone names only part of the genotype.',
    );
  if (sites) notes.push(...siteNotes(sites, detection.sequencingSource, setAside));
  const byRsid = snpCount - (sites ? sites.matchedByPosition + sites.readAsReference : 0);
  if (sites?.build && byRsid === 0) {
    const { placed, markers } = parser.sites!.placedIn(sites.build);
    notes.push(
      `Without rsIDs, a line is read only at a marker whose GRCh${sites.build} position Traitscope knows: ${placed.toLocaleString('en-US')} of the ` +
        `${markers.toLocaleString('en-US')} markers it uses (no shipped source places the others, mostly markers of GWAS Catalog studies after 2017). ` +
        'Results resting on the others say how few of their markers could be read. A VCF annotated with rsIDs (for example with bcftools annotate and dbSNP) is read at all of them.',
    );
  }
  const summary: ParseSummary = {
    format: detection.format,
    vendor: detection.vendor,
    container: containerName(ctx.layers),
    build,
    build_source: buildSource,
    snp_count: snpCount,
    no_calls: noCalls,
    call_rate: snpCount === 0 ? 0 : (snpCount - noCalls) / snpCount,
    skipped_lines: parser.skips.total(),
    skipped_by_reason: parser.skips.byReason(),
    duplicates,
    binary_tail_bytes: binaryTail,
    inferred_sex: inferSex(sex),
    parse_ms: Math.round((performance.now() - started) * 10) / 10,
    site_reading: sites?.reading ?? 'as_listed',
    site_reading_from: sites?.readingFrom ?? 'default',
    ...(detection.samples.length > 1
      ? { vcf_samples: detection.samples, vcf_sample: detection.samples[detection.sampleColumn] }
      : {}),
    matched_by: {
      rsid: byRsid,
      position: sites?.matchedByPosition ?? 0,
      read_as_reference: sites?.readAsReference ?? 0,
    },
    set_aside: setAside,
    notes,
  };
  return { ok: true, genotype, summary };
}

/** Why a VCF with more text than the parser reads is refused, and what to upload instead. */
function vcfTooLarge(limit: number, parser: TextGenotypeParser): string {
  if (parser.detection?.gvcf || (parser.sites?.referenceBlocks ?? 0) > 0)
    return (
      `This gVCF holds more than ${formatBytes(limit)} of text: a gVCF states every stretch of the genome, not only where you differ from the reference, ` +
      "so a whole genome's is far larger than the VCF of its variants, and more than Traitscope reads. " +
      'Upload the VCF of your variants instead (the .vcf.gz your sequencing service delivers beside the .g.vcf.gz).'
    );
  return (
    `This VCF holds more than ${formatBytes(limit)} of text, more than the VCF of one person's variants: it may hold many samples, or imputed sites. ` +
    'Upload the VCF of your own variants (or the raw data of a genotyping test).'
  );
}

/** What the person should know about how a VCF's sites were read. */
function siteNotes(
  sites: SiteOutcome,
  source: string | null,
  setAside: NonNullable<ParseSummary['set_aside']>,
): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const notes: string[] = [];
  if (sites.matchedByPosition > 0)
    notes.push(
      `${n(sites.matchedByPosition)} markers were found by their GRCh${sites.build} position (the lines carry no rsID, or another one).`,
    );
  if (sites.reading === 'variants_only') {
    // Told from the lines at the markers, the file lists reference calls too: say which counts decided.
    const counts = sites.toldByMarkers
      ? `: at the markers' positions it has ${n(sites.markerVariantCalls)} variant calls and ${n(sites.markerHomRefCalls)} reference calls ` +
        `(${n(sites.homRefCalls)} reference calls in all: sites its caller weighed, as DeepVariant's RefCall lines)`
      : `: ${n(sites.variantCalls)} variant calls and ${n(sites.homRefCalls)} reference calls`;
    notes.push(
      `This VCF lists only the sites where you differ from the reference genome${source ? ` (as ${source} files do)` : ''}` +
        `${sites.readingFrom === 'person' ? ', as you confirmed' : counts}. ` +
        `${n(sites.readAsReference)} markers it does not list, on the chromosomes it covers, were read as homozygous for the reference allele. ` +
        'If your file lists every site that was called, process it again with variants_only=false.',
    );
    if (sites.listedShare !== null && sites.listedShare < PARTIAL_GENOME_LISTED_SHARE) {
      const pct = (x: number) => Math.round(x * 100);
      const { low, high } = WHOLE_GENOME_LISTED_SHARE;
      notes.push(
        `This file has lines at only ${pct(sites.listedShare)} % of the markers of known reference allele on its chromosomes, where a whole genome lists ` +
          `${pct(low)}–${pct(high)} % of them as variants (1000 Genomes, every population): ` +
          'it may cover only part of the genome (an exome, a gene panel, a chip file converted to VCF), and the markers outside what was sequenced are not known to match the reference. ' +
          'If your file is not a whole genome, process it again with variants_only=false.',
      );
    }
  } else if (sites.reading === 'reference_blocks')
    notes.push(
      `This is a gVCF: ${n(sites.readAsReference)} markers inside its reference blocks were read as homozygous for the reference allele.`,
    );
  else if (sites.readingFrom === 'person')
    notes.push(
      'As you confirmed, only the sites this VCF lists were read; markers it does not list are missing, not assumed to be the reference.',
    );
  const calls = (x: number) => `${n(x)} ${x === 1 ? 'call' : 'calls'}`;
  if (setAside.unknown_reference > 0)
    notes.push(
      `${calls(setAside.unknown_reference)} at markers whose reference allele Traitscope does not know in GRCh${sites.build} ${setAside.unknown_reference === 1 ? 'was' : 'were'} set aside: ` +
        `such a file has a line there only where you carry a variant, and where you match the reference the marker cannot be read, ` +
        'so counting these calls would tilt the results that rest on them. A VCF that lists every called site is read at them.',
    );
  if (setAside.outside_index > 0)
    notes.push(
      `${calls(setAside.outside_index)} at ${setAside.outside_index === 1 ? 'a site' : 'sites'} no built-in result uses ${setAside.outside_index === 1 ? 'was' : 'were'} not kept: ` +
        'the file lists such a site only where you carry a variant, and Traitscope does not know its reference allele, ' +
        'so a score imported later would count your variants there and miss your reference calls. ' +
        'Imported scores are read from this file at the markers Traitscope knows; a VCF that lists every called site is read at all of its sites.',
    );
  if (sites.refMismatches > 0)
    notes.push(
      `${n(sites.refMismatches)} ${sites.refMismatches === 1 ? 'line sits' : 'lines sit'} at a marker's GRCh${sites.build} position but ${sites.refMismatches === 1 ? 'names' : 'name'} another reference allele; ${sites.refMismatches === 1 ? 'it was' : 'they were'} not used for that marker.`,
    );
  if (sites.indelMismatches > 0)
    notes.push(
      `${n(sites.indelMismatches)} insertion/deletion ${sites.indelMismatches === 1 ? 'line sits' : 'lines sit'} at an indel marker's GRCh${sites.build} site but ${sites.indelMismatches === 1 ? 'carries' : 'carry'} another allele than the marker's (compared after trimming shared bases and shifting within the repeat); ${sites.indelMismatches === 1 ? 'it was' : 'they were'} not read as that marker.`,
    );
  if (sites.build === null && sites.unusedSites > 0)
    notes.push(
      'The build of this VCF could not be told (no build in its header, too few known markers), so lines without an rsID were not read. Export it with its full header.',
    );
  return notes;
}

function containerName(layers: string[]): string {
  const key = layers.join('+');
  if (key === '') return 'plain';
  if (key === 'gzip+tar') return 'tar.gz';
  return key;
}
