/**
 * Who made a raw-data file: the parser's format id and the name people know it by. The one
 * home of these names: the service reports them (`metadata.vendor`), the UI shows them.
 */
export const VENDOR_NAMES = {
  '23andme': '23andMe',
  ancestrydna: 'AncestryDNA',
  myheritage: 'MyHeritage',
  livingdna: 'Living DNA',
  genesforgood: 'Genes for Good',
  dnaland: 'DNA.Land',
  tellmegen: 'tellmeGen',
  '23mofang': '23Mofang',
  sano: 'Sano Genetics',
  codigo46: 'Código 46',
  selfdecode: 'SelfDecode',
  circledna: 'CircleDNA',
  mapmygenome: 'Mapmygenome',
  ftdna: 'FamilyTreeDNA',
  plink: 'PLINK',
  /** A file that names no maker: the service reports this word. */
  generic: 'Unknown',
} as const;

/** The sources the start screen names, most common first. */
export const WELL_KNOWN_SOURCES: readonly string[] = [
  VENDOR_NAMES['23andme'],
  VENDOR_NAMES.ancestrydna,
  VENDOR_NAMES.myheritage,
  VENDOR_NAMES.ftdna,
  VENDOR_NAMES.livingdna,
  'VCF',
];
