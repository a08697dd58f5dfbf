/**
 * Marker ids that are not dbSNP's: a position-only score's variant read from a line of the
 * person's VCF that has no rsID gets an id from FILE_SITE_ID_BASE upwards
 * (service/science/pgs-import/file-sites.ts). Traits number markers like rsIDs, so these
 * appear as `rs…` in the API; they sit above every rs number dbSNP has issued, and the UI
 * never presents them as dbSNP's (docs/file-formats.md, "Position-only scores").
 */
export const FILE_SITE_ID_BASE = 0xf000_0000;

/** Whether an `rs…` marker name is one of Traitscope's own ids for a site read by position. */
export function isFileSiteMarker(rsid: string): boolean {
  return Number(rsid.slice(2)) >= FILE_SITE_ID_BASE;
}
