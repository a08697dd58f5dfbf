/**
 * Recognising who produced a file, from its comment lines and column header. Detection
 * reads content only, never the file name. Each entry: a test over the header text (the
 * comment lines and the first non-comment line), the format id and the vendor's name.
 */
import { VENDOR_NAMES } from '../../../shared/vendors.js';
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
    vendor: VENDOR_NAMES['23andme'],
    test: (h) => has(h, '23andme') && !has(h, 'genes for good') && !has(h, 'dna.land'),
  },
  {
    format: 'ancestrydna',
    vendor: VENDOR_NAMES.ancestrydna,
    test: (h) => has(h, 'ancestrydna') || has(h, 'ancestry.com'),
  },
  { format: 'myheritage', vendor: VENDOR_NAMES.myheritage, test: (h) => has(h, 'myheritage') },
  { format: 'livingdna', vendor: VENDOR_NAMES.livingdna, test: (h) => has(h, 'living dna') || has(h, 'livingdna') },
  { format: 'genesforgood', vendor: VENDOR_NAMES.genesforgood, test: (h) => has(h, 'genes for good') },
  { format: 'dnaland', vendor: VENDOR_NAMES.dnaland, test: (h) => has(h, 'dna.land') },
  { format: 'tellmegen', vendor: VENDOR_NAMES.tellmegen, test: (h) => has(h, 'tellmegen') },
  { format: '23mofang', vendor: VENDOR_NAMES['23mofang'], test: (h) => has(h, '23mofang') },
  { format: 'sano', vendor: VENDOR_NAMES.sano, test: (h) => /(^|[^a-z])sano([^a-z]|$)/m.test(h) },
  {
    format: 'codigo46',
    vendor: VENDOR_NAMES.codigo46,
    test: (h) => has(h, 'codigo46') || has(h, 'codigo 46') || has(h, 'código 46'),
  },
  { format: 'selfdecode', vendor: VENDOR_NAMES.selfdecode, test: (h) => has(h, 'selfdecode') },
  {
    format: 'circledna',
    vendor: VENDOR_NAMES.circledna,
    test: (h, c) =>
      has(h, 'circledna') ||
      has(h, 'circle dna') ||
      /^#\s*circle\s*$/m.test(h) ||
      /^#?\s*markername\tchrom\tpos\tgt\s*$/.test(c),
  },
  { format: 'mapmygenome', vendor: VENDOR_NAMES.mapmygenome, test: (h) => has(h, 'mapmygenome') },
  {
    format: 'ftdna-famfinder',
    vendor: VENDOR_NAMES.ftdna,
    test: (h) => has(h, 'famfinder') || has(h, 'family finder'),
  },
  {
    format: 'ftdna',
    vendor: VENDOR_NAMES.ftdna,
    test: (h) => has(h, 'familytreedna') || has(h, 'family tree dna') || has(h, 'ftdna'),
  },
  { format: 'plink', vendor: VENDOR_NAMES.plink, test: (h) => has(h, 'plink') },
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
    return { format: 'tellmegen', vendor: VENDOR_NAMES.tellmegen };
  const cols = c.replace(/["'#\s]/g, '');
  if (cols === 'rsid,chromosome,position,result') return { format: 'ftdna', vendor: VENDOR_NAMES.ftdna };
  if (/allele1[^a-z]*top/.test(c) && /snp[ ._]?name/.test(c))
    return { format: 'mapmygenome', vendor: VENDOR_NAMES.mapmygenome };
  return null;
}
