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
