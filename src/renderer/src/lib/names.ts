/**
 * A profile name guessed from a raw-data file name, so a dropped file becomes "Ada
 * Lovelace" rather than "genome_Ada_Lovelace_v5_Full_20240314". The user can edit it.
 */

const VENDOR_WORDS =
  /^(genome|ancestry|ancestrydna|dna|raw|data|myheritage|ftdna|familytreedna|livingdna|23andme|export|file|full|v\d+|build\d*|grch\d+|hg\d+|autosomal|o|x|results?)$/i;

export function nameFromFileName(fileName: string): { first_name: string; last_name: string } {
  const base = fileName
    .replace(/\.(zip|gz|tar|txt|csv|tsv|vcf)$/gi, '')
    .replace(/\.(zip|gz|tar|txt|csv|tsv|vcf)$/gi, '')
    .replace(/\.(txt|csv|tsv|vcf)$/gi, '');
  const words = base
    .split(/[\s_\-.()[\]]+/)
    .filter(Boolean)
    .filter((w) => !/\d{4,}/.test(w) && !/^\d+$/.test(w))
    .filter((w) => !VENDOR_WORDS.test(w));
  // People write names capitalised (genome_Ada_Lovelace_…); lower-case words are file-name words.
  const nameLike = words.filter((w) => /^\p{Lu}[\p{L}'’]*$/u.test(w));
  if (nameLike.length >= 2) {
    const [first, ...rest] = nameLike.map(capitalise);
    return { first_name: first.slice(0, 100), last_name: rest.join(' ').slice(0, 100) };
  }
  if (nameLike.length === 1) return { first_name: capitalise(nameLike[0]).slice(0, 100), last_name: '' };
  // Nothing name-like: the file name itself says which file this profile came from.
  return { first_name: base.slice(0, 100) || 'New profile', last_name: '' };
}

function capitalise(w: string): string {
  return w === w.toLowerCase() || w === w.toUpperCase() ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w;
}
