/**
 * Markers read by position without an rsID carry Traitscope's own numbers
 * (src/shared/marker-ids.ts); the result page must not send them to dbSNP.
 */
import { describe, expect, it } from 'vitest';
import { FILE_SITE_ID_BASE, isFileSiteMarker } from '../../src/shared/marker-ids.js';

describe('isFileSiteMarker', () => {
  it("tells Traitscope's own marker numbers from dbSNP rsIDs at the boundary", () => {
    expect(isFileSiteMarker(`rs${FILE_SITE_ID_BASE}`)).toBe(true);
    expect(isFileSiteMarker(`rs${FILE_SITE_ID_BASE + 12}`)).toBe(true);
    expect(isFileSiteMarker(`rs${FILE_SITE_ID_BASE - 1}`)).toBe(false);
    expect(isFileSiteMarker('rs4988235')).toBe(false);
  });
});
