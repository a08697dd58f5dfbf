/**
 * Which archive members can be genotype data. Archives from testing companies hold one
 * text file, sometimes with macOS resource forks (__MACOSX/, ._name), a README or a PDF.
 */
const JUNK_EXTENSIONS = new Set([
  'pdf',
  'html',
  'htm',
  'jpg',
  'jpeg',
  'png',
  'gif',
  'svg',
  'webp',
  'md',
  'rtf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'json',
  'xml',
  'ds_store',
  'exe',
  'dll',
  'sig',
  'asc',
  'md5',
  'sha256',
  'tbi',
  'csi',
]);

export function isJunkMemberName(path: string): boolean {
  const parts = path.split(/[\\/]/).filter((p) => p.length > 0);
  if (parts.length === 0) return true;
  if (parts.some((p) => p === '__MACOSX')) return true;
  const base = parts[parts.length - 1];
  if (base.startsWith('.')) return true;
  if (/^(readme|license|licence|copying|changelog)(\.|$)/i.test(base)) return true;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  return JUNK_EXTENSIONS.has(ext);
}

/** Higher is more likely the genotype file: text/VCF extensions first. */
export function memberRank(path: string): number {
  const lower = path.toLowerCase();
  if (/\.(txt|csv|tsv|vcf|tab)(\.gz)?$/.test(lower)) return 2;
  if (/\.gz$/.test(lower) || !/\.[a-z0-9]{1,5}$/.test(lower)) return 1;
  return 0;
}
