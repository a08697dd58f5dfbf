/**
 * Recognising who produced a file, from its comment lines and column header. Detection
 * reads content only, never the file name. Each entry: a test over the header text (the
 * comment lines and the first non-comment line), the format id and the vendor's name.
 */
export interface VendorInfo {
  format: string;
  vendor: string;
}

interface VendorRule extends VendorInfo {
  test: (header: string, columns: string) => boolean;
}

const has = (s: string, needle: string) => s.includes(needle);

const RULES: VendorRule[] = [
  {
    format: '23andme',
    vendor: '23andMe',
    test: (h) => has(h, '23andme') && !has(h, 'genes for good') && !has(h, 'dna.land'),
  },
  { format: 'ancestrydna', vendor: 'AncestryDNA', test: (h) => has(h, 'ancestrydna') || has(h, 'ancestry.com') },
  { format: 'myheritage', vendor: 'MyHeritage', test: (h) => has(h, 'myheritage') },
  { format: 'livingdna', vendor: 'LivingDNA', test: (h) => has(h, 'living dna') || has(h, 'livingdna') },
  { format: 'genesforgood', vendor: 'Genes for Good', test: (h) => has(h, 'genes for good') },
  { format: 'dnaland', vendor: 'DNA.Land', test: (h) => has(h, 'dna.land') },
  { format: 'tellmegen', vendor: 'tellmeGen', test: (h) => has(h, 'tellmegen') },
  { format: '23mofang', vendor: '23Mofang', test: (h) => has(h, '23mofang') },
  { format: 'sano', vendor: 'Sano Genetics', test: (h) => /(^|[^a-z])sano([^a-z]|$)/m.test(h) },
  {
    format: 'codigo46',
    vendor: 'Código 46',
    test: (h) => has(h, 'codigo46') || has(h, 'codigo 46') || has(h, 'código 46'),
  },
  { format: 'selfdecode', vendor: 'SelfDecode', test: (h) => has(h, 'selfdecode') },
  {
    format: 'circledna',
    vendor: 'CircleDNA',
    test: (h, c) =>
      has(h, 'circledna') ||
      has(h, 'circle dna') ||
      /^#\s*circle\s*$/m.test(h) ||
      /^#?\s*markername\tchrom\tpos\tgt\s*$/.test(c),
  },
  { format: 'mapmygenome', vendor: 'Mapmygenome', test: (h) => has(h, 'mapmygenome') },
  { format: 'ftdna-famfinder', vendor: 'FamilyTreeDNA', test: (h) => has(h, 'famfinder') || has(h, 'family finder') },
  {
    format: 'ftdna',
    vendor: 'FamilyTreeDNA',
    test: (h) => has(h, 'familytreedna') || has(h, 'family tree dna') || has(h, 'ftdna'),
  },
  { format: 'plink', vendor: 'PLINK', test: (h) => has(h, 'plink') },
];

/**
 * Vendor from header text (lower-cased comments and column header). Files that carry no
 * name are recognised by their column header alone: "RSID,CHROMOSOME,POSITION,RESULT"
 * is FamilyTreeDNA's (MyHeritage uses it too, but says so in its comments), Illumina
 * report columns ("SNP Name", "Allele1 - Top") are Mapmygenome's layout.
 */
export function detectVendor(headerText: string, columnsLine: string): VendorInfo | null {
  const h = headerText.toLowerCase();
  const c = columnsLine.toLowerCase();
  for (const rule of RULES) if (rule.test(h, c)) return { format: rule.format, vendor: rule.vendor };
  // tellmeGen's export carries no name; its header alone capitalises "Chromosome".
  if (/^rsid\tChromosome\tposition\tgenotype\s*$/.test(columnsLine))
    return { format: 'tellmegen', vendor: 'tellmeGen' };
  const cols = c.replace(/["'#\s]/g, '');
  if (cols === 'rsid,chromosome,position,result') return { format: 'ftdna', vendor: 'FamilyTreeDNA' };
  if (/allele1[^a-z]*top/.test(c) && /snp[ ._]?name/.test(c)) return { format: 'mapmygenome', vendor: 'Mapmygenome' };
  return null;
}
