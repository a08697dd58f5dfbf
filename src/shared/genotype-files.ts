/**
 * The file name endings of genotype files Traitscope opens: raw-data text, VCF, and the
 * archives vendors deliver them in. The one home of the list: the file chooser, the desktop
 * app's "Open with" and command line, and the upload route's description use it.
 */
export const GENOTYPE_EXTENSIONS = ['txt', 'csv', 'tsv', 'vcf', 'zip', 'gz'] as const;

/** The `accept` attribute of a file input for genotype files (extensions and their media types). */
export const GENOTYPE_ACCEPT = [
  ...GENOTYPE_EXTENSIONS.map((e) => `.${e}`),
  'text/plain',
  'text/csv',
  'application/zip',
  'application/gzip',
].join(',');

/**
 * The Content-Type a genotype file is stored with, by its name: a zip archive as such, every
 * other file as text/plain (the service recognises gzip by its bytes). The page's uploads
 * and the desktop app's "Open with" use it.
 */
export function uploadContentType(fileName: string): 'application/zip' | 'text/plain' {
  return /\.zip$/i.test(fileName) ? 'application/zip' : 'text/plain';
}

/**
 * Said with every refusal of a file over the upload limit: what a sequencing customer, whose
 * service delivers far larger files beside the VCF, should open instead.
 */
export const TOO_LARGE_ADVICE = 'From a sequencing service, use the VCF of your variants, not its gVCF, BAM or CRAM.';
