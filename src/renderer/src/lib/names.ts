/**
 * A profile name guessed from a raw-data file name, so a dropped file becomes "Ada
 * Lovelace" rather than "genome_Ada_Lovelace_v5_Full_20240314". The user can edit it.
 */

const VENDOR_WORDS =
  /^(genome|ancestry|ancestrydna|dna|raw|data|myheritage|ftdna|familytreedna|livingdna|23andme|export|file|full|v\d+|build\d*|grch\d+|hg\d+|autosomal|o|x|results?)$/i;

/** The capitalised, name-like words of a file name ("genome_John_Smith_v5_Full" → John, Smith). */
function nameWords(fileName: string): { base: string; nameLike: string[] } {
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
  return { base, nameLike };
}

export function nameFromFileName(fileName: string): { first_name: string; last_name: string } {
  const { base, nameLike } = nameWords(fileName);
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

const fold = (w: string) => w.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The person a file's name names when it is not this profile's person ("genome_John_Smith_…"
 * offered to "Maria Rossi"), else null. Only a file name with two name-like words counts,
 * and it agrees when it shares any word with the profile's name (a first name alone, a
 * married name …): a wrong warning costs a click, a missing one a mixed-up profile.
 */
export function otherPersonInFileName(
  fileName: string,
  profile: { first_name: string; last_name: string },
): string | null {
  const { nameLike } = nameWords(fileName);
  if (nameLike.length < 2) return null;
  const own = new Set(
    `${profile.first_name} ${profile.last_name}`
      .split(/[\s-]+/)
      .filter(Boolean)
      .map(fold),
  );
  if (own.size === 0 || nameLike.some((w) => own.has(fold(w)))) return null;
  return nameLike.map(capitalise).join(' ');
}
