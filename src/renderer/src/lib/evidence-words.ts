/**
 * The sentence under an evidence label, built from the label's own reasons (the study's
 * facts with their figures, docs/science.md §6) so the words can never claim "small
 * studies" beside a study of 456,837 people. No fixed description per label.
 */
const LEAD: Record<string, string> = {
  strong: 'Supported by',
  moderate: 'Not rated strong:',
  limited: 'Read with caution:',
  suggestive: 'Read with great caution:',
};

export function evidenceWords(label: string, reasons: readonly string[] | undefined): string {
  const facts = (reasons ?? []).filter(Boolean);
  if (facts.length === 0) return '';
  return `${LEAD[label] ?? 'Evidence:'} ${facts.join('; ')}.`;
}
