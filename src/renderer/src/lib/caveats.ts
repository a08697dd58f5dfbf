/**
 * What a person must read beside a notable result before trusting it: the other studies of
 * the phenotype mostly disagree, one marker carries the score, the score rests on a rare
 * call, or it lies off the reference's scale. `rare_call` is absent from results stored
 * before the service flagged rare calls: those read as having none.
 */
import type { ProfileTrait } from '../../../shared/api.js';

/**
 * A score whose largest marker carries more than half of it rests mostly on that marker
 * (the share above which docs/science.md §6 refuses the label "strong").
 */
const ONE_MARKER_SHARE = 0.5;

export interface Caveat {
  kind: 'disagree' | 'one_marker' | 'rare_call' | 'off_scale';
  text: string;
}

export function resultCaveats(r: ProfileTrait): Caveat[] {
  const out: Caveat[] = [];
  const g = r.group_agreement;
  if (g && g.others >= 2 && g.disagree > g.others / 2)
    out.push({
      kind: 'disagree',
      text: `${g.disagree} of the ${g.others} other studies of this phenotype place you differently`,
    });
  const total = r.evidence?.markers_total ?? r.trait.quality?.markers;
  const top = r.evidence?.top_marker_share ?? r.trait.evidence?.top_marker_share;
  if (total === 1) out.push({ kind: 'one_marker', text: 'rests on a single marker' });
  else if (typeof top === 'number' && top > ONE_MARKER_SHARE)
    out.push({ kind: 'one_marker', text: `one marker carries ${Math.round(100 * top)} % of the score` });
  if (r.rare_call)
    out.push({
      kind: 'rare_call',
      text: `rests on a rare call (${r.rare_call.rsid}), which chips often read wrongly`,
    });
  if (r.percentile_bound === 'above_99.9' || r.percentile_bound === 'below_0.1')
    out.push({
      kind: 'off_scale',
      text: `off the scale (${r.percentile_bound === 'above_99.9' ? 'beyond the 99.9th' : 'below the 0.1st'} percentile): an unusual genotype at a few markers can put a score there`,
    });
  return out;
}

/** The caveats as one sentence for a summary line, or '' when there are none. */
export function caveatSentence(caveats: Caveat[]): string {
  if (caveats.length === 0) return '';
  const text = caveats.map((c) => c.text).join('; ');
  return `Read with care: ${text}.`;
}
