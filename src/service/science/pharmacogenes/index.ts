/**
 * Drug–gene results for a stored genotype (docs/pharmacogenes.md): each gene of the shipped
 * table called from the file's letters, read by rsID or, where the file lacks the rsID, by
 * its GRCh37 or GRCh38 position, with what the result means for medicines.
 */
import type { Genotype } from '../../genotype/types.js';
import { findRsid } from '../../genotype/encoding.js';
import { callPharmacogene, type PharmacogeneCall, type SiteReader } from './call.js';
import { medicinesFor, readMedicineFile, type MedicineFile, type MedicineNote } from './medicines.js';
import { readPharmacogeneFile, type PharmacogeneFile, type PharmacogeneSite } from './table.js';

export interface PharmacogeneResult extends PharmacogeneCall {
  medicines: MedicineNote[];
  /** Said with every result: see a doctor or pharmacist; chips misread rare variants. */
  cautions: { text: string; pmid: string | null }[];
}

export interface PharmacogeneData {
  table: PharmacogeneFile;
  medicines: MedicineFile;
}

let loaded: { dir: string; data: PharmacogeneData } | undefined;

/** The shipped table and medicine notes, read once per resources folder. */
export function pharmacogeneData(resourcesDir: string): PharmacogeneData {
  if (loaded?.dir !== resourcesDir)
    loaded = {
      dir: resourcesDir,
      data: { table: readPharmacogeneFile(resourcesDir), medicines: readMedicineFile(resourcesDir) },
    };
  return loaded.data;
}

/**
 * Reads a site by rsID first; by position only when the file's build is known and the
 * marker is stored under another rsID (a merged or vendor-specific id) with that position.
 * The position index covers only the table's own positions: one pass over the file's
 * typed arrays, checking each marker against a small set per chromosome.
 */
export function genotypeSiteReader(
  genotype: Genotype,
  build: 36 | 37 | 38 | null,
  table: PharmacogeneFile,
): SiteReader {
  const positionOf = (site: PharmacogeneSite) => (build === 38 ? site.pos38 : build === 37 ? site.pos37 : null);
  let byPosition: Map<string, number> | undefined;
  const indexPositions = () => {
    const wanted = new Map<number, Set<number>>();
    for (const def of table.genes)
      for (const site of def.sites) {
        const pos = positionOf(site);
        if (pos === null) continue;
        let set = wanted.get(def.chrom);
        if (!set) wanted.set(def.chrom, (set = new Set()));
        set.add(pos);
      }
    const found = new Map<string, number>();
    const { chroms, positions } = genotype;
    for (let i = 0; i < positions.length; i++)
      if (wanted.get(chroms[i])?.has(positions[i])) found.set(`${chroms[i]}:${positions[i]}`, i);
    return found;
  };
  return (site, chrom) => {
    if (site.rsid !== null) {
      const i = findRsid(genotype.rsids, site.rsid);
      if (i >= 0) return genotype.calls[i];
    }
    const pos = positionOf(site);
    if (pos === null) return undefined;
    byPosition ??= indexPositions();
    const i = byPosition.get(`${chrom}:${pos}`);
    return i === undefined ? undefined : genotype.calls[i];
  };
}

export function pharmacogenesFor(data: PharmacogeneData, read: SiteReader): PharmacogeneResult[] {
  const cautions = [
    { text: data.medicines.always, pmid: null },
    { text: data.medicines.chip_caution.text, pmid: data.medicines.chip_caution.pmid },
  ];
  return data.table.genes.map((def) => {
    const call = callPharmacogene(def, read, data.table.source);
    return { ...call, medicines: medicinesFor(data.medicines, call), cautions };
  });
}
