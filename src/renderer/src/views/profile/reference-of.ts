/** The reference a profile's results were compared with, and the DNA's own ancestry estimate. */
import type { GenotypeMetadata } from '../../../../shared/api.js';
import type { AncestryEstimate } from '../../components/ReferenceChoice.js';
import { commonReference, type Reference } from '../../lib/reference.js';
import { hasFile } from '../../state/profiles.js';
import type { ProfileTraits } from '../../state/traits.js';

/** The genotype summary's reference, else the one its results share. */
export function referenceOf(
  genotype: GenotypeMetadata | undefined,
  lists: ProfileTraits | undefined,
): { reference: Reference | undefined; estimate: AncestryEstimate | null } {
  const metadata = hasFile(genotype) ? (genotype.metadata as Record<string, unknown>) : {};
  const reference =
    (metadata.reference as Reference | undefined) ?? commonReference(Object.values(lists?.results ?? {}));
  const estimate = (metadata.ancestry as AncestryEstimate | null | undefined) ?? reference?.ancestry ?? null;
  return { reference, estimate };
}
