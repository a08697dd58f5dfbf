import { fileURLToPath } from 'node:url';
import { callToString, chromToString } from '../../src/service/genotype/encoding.js';
import type { Genotype } from '../../src/service/genotype/types.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/genotypes/', import.meta.url));

export function fixturePath(name: string): string {
  return FIXTURES + name;
}

/** A Genotype as the "rsid chrom pos call" rows used in expected.ts. */
export function markerRows(g: Genotype): string[] {
  const rows: string[] = [];
  for (let i = 0; i < g.rsids.length; i++) {
    rows.push(`rs${g.rsids[i]} ${chromToString(g.chroms[i]) || '0'} ${g.positions[i]} ${callToString(g.calls[i])}`);
  }
  return rows;
}

export function sortRows(rows: string[]): string[] {
  return [...rows].sort((a, b) => Number(a.split(' ')[0].slice(2)) - Number(b.split(' ')[0].slice(2)));
}

export const enc = (s: string) => new TextEncoder().encode(s);
