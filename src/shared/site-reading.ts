/**
 * How a DNA file's sites were read (the genotype summary's `site_reading` and
 * `site_reading_from`, docs/file-formats.md "Sequencing files"), in the words the app and
 * the command line show a person.
 */
export const SITE_READINGS = ['as_listed', 'variants_only', 'reference_blocks'] as const;
export const SITE_READING_FROM = ['contents', 'header', 'person', 'default'] as const;
export type SiteReading = (typeof SITE_READINGS)[number];
export type SiteReadingFrom = (typeof SITE_READING_FROM)[number];

export const SITE_READING_TEXT: Record<SiteReading, string> = {
  as_listed: 'Only the sites the file lists',
  variants_only:
    'Variants only: the file lists the sites where you differ from the reference genome, so every site it does not list is read as matching the reference',
  reference_blocks: 'A gVCF: sites inside its reference blocks are read as matching the reference genome',
};

export const SITE_READING_FROM_TEXT: Record<SiteReadingFrom, string> = {
  contents: 'decided from the file’s contents',
  header: 'as the file’s header says',
  person: 'as you chose',
  default: 'the usual reading',
};
