/**
 * The results search as people talk: everyday words and gene names (data/everyday-words.json)
 * become the catalog's words, single markers to look up in the person's own file, or a
 * pointer to a finding; rsIDs are looked up as typed.
 */
import table from '../data/everyday-words.json';

export interface KnownMarker {
  rsid: string;
  gene: string;
  known_for: string;
  pmid: string | null;
}

export interface EverydayTerm {
  words: string[];
  search: string[];
  finding?: string;
  markers?: KnownMarker[];
  note?: string;
}

const TERMS = table.terms as EverydayTerm[];

export interface SearchPlan {
  /** Each alternative is a list of words a phenotype's text must all contain; any alternative matches. */
  alternatives: string[][];
  /** The everyday term the query names, if any. */
  term: EverydayTerm | null;
  /** rsIDs to look up in the person's file: typed ones, then the term's markers. */
  rsids: string[];
}

const words = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean);

/** The everyday term a query names: the whole query, or a phrase of it ("my eye colour"). */
function termOf(query: string): EverydayTerm | null {
  const q = ` ${words(query).join(' ')} `;
  if (q.trim() === '') return null;
  let best: { term: EverydayTerm; length: number } | null = null;
  for (const term of TERMS)
    for (const w of term.words)
      if (q.includes(` ${w} `) && (!best || w.length > best.length)) best = { term, length: w.length };
  return best?.term ?? null;
}

export function searchPlan(query: string): SearchPlan {
  const typed = words(query);
  const term = termOf(query);
  const typedRsids = typed.map((w) => w.replace(/[,;]$/, '')).filter((w) => /^rs\d{1,10}$/.test(w));
  const alternatives = [typed, ...(term?.search ?? []).map(words)];
  const rsids = [...new Set([...typedRsids, ...(term?.markers ?? []).map((m) => m.rsid)])];
  return { alternatives, term, rsids };
}
