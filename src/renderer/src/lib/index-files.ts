/**
 * Index files that travel with sequencing data: a `.vcf.gz` comes with its `.tbi` or `.csi`,
 * a BAM with its `.bai`, a CRAM with its `.crai`. They hold no genotypes. Dropped together
 * with the file they index, they are not imported (the tray says so); dropped alone, they
 * are uploaded like any file and the service's refusal says what they are.
 */
const INDEX_SUFFIXES = ['.tbi', '.csi', '.bai', '.crai'];

/** The name of the file among `names` that `name` indexes, or null. */
export function indexedFileOf(name: string, names: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const suffix = INDEX_SUFFIXES.find((s) => lower.endsWith(s));
  if (!suffix) return null;
  const stem = name.slice(0, -suffix.length);
  // `genome.vcf.gz.tbi` indexes `genome.vcf.gz`; samtools also writes `genome.bai` for `genome.bam`.
  const candidates = [stem, ...(suffix === '.bai' ? [`${stem}.bam`] : [])];
  return names.find((n) => n !== name && candidates.some((c) => c.toLowerCase() === n.toLowerCase())) ?? null;
}
