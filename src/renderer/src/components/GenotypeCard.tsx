/** The genotype summary: where the file came from, how complete it is, inferred sex and ancestry. */
import { formatBytes, formatDate, formatInt, formatPercent, populationName, vendorName } from '../lib/format.js';
import type { GenotypeInfo } from '../state/profiles.js';

const BUILD_NAMES: Record<string, string> = { '36': 'GRCh36 (hg18)', '37': 'GRCh37 (hg19)', '38': 'GRCh38 (hg38)' };

function buildName(build: unknown): string {
  if (build === null || build === undefined || build === '') return 'Unknown';
  const key = String(build).replace(/^(grch|hg|build\s*)/i, '');
  if (key === '19') return BUILD_NAMES['37'];
  return BUILD_NAMES[key] ?? String(build);
}

function sexName(sex: unknown): string {
  if (sex === 'female' || sex === 'F' || sex === 2) return 'Female (XX)';
  if (sex === 'male' || sex === 'M' || sex === 1) return 'Male (XY)';
  return 'Undetermined';
}

/** Ancestry proportions as [population, fraction] sorted high to low, whatever shape they arrive in. */
function proportions(ancestry: unknown): Array<[string, number]> {
  if (!ancestry || typeof ancestry !== 'object') return [];
  const raw = (ancestry as { proportions?: unknown }).proportions;
  let pairs: Array<[string, number]> = [];
  if (Array.isArray(raw)) {
    pairs = raw
      .map((x): [string, number] => [String((x as { population?: string }).population ?? ''), Number((x as { proportion?: number }).proportion ?? 0)])
      .filter(([k]) => k);
  } else if (raw && typeof raw === 'object') {
    pairs = Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, Number(v)]);
  }
  return pairs.filter(([, v]) => Number.isFinite(v) && v > 0).sort((a, b) => b[1] - a[1]);
}

const POP_ORDER = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'];

export function GenotypeCard({ genotype }: { genotype: GenotypeInfo }) {
  const m = genotype.metadata as Record<string, unknown> & GenotypeInfo['metadata'];
  const ancestry = m.ancestry as { population?: string } | null | undefined;
  const props = proportions(ancestry);
  const callRate = typeof m.call_rate === 'number' ? m.call_rate : null;

  return (
    <section className="card genotype-card" aria-labelledby="genotype-title" data-testid="genotype-card">
      <header className="card-header">
        <h2 id="genotype-title">DNA file</h2>
        <span className="muted small">
          {/* After a failed replacement the file details describe the unreadable file; the summary is the previous one. */}
          {m.status === 'failed'
            ? `Added ${formatDate(genotype.created_at)}`
            : `Added ${formatDate(genotype.created_at)}${genotype.updated_at !== genotype.created_at ? ` · replaced ${formatDate(genotype.updated_at)}` : ''} · ${formatBytes(Number(genotype.size))}`}
        </span>
      </header>
      <dl className="stat-grid">
        <div className="stat">
          <dt>Source</dt>
          <dd>{vendorName(m.vendor)}</dd>
          {m.format && String(m.format).toLowerCase() !== String(m.vendor ?? '').toLowerCase() ? <span className="stat-sub">{String(m.format)}</span> : null}
        </div>
        <div className="stat">
          <dt>Genome build</dt>
          <dd>{buildName(m.build)}</dd>
        </div>
        <div className="stat">
          <dt>Markers read</dt>
          <dd className="tabular">{typeof m.snp_count === 'number' ? formatInt(m.snp_count) : '—'}</dd>
          {typeof m.no_calls === 'number' && m.no_calls > 0 ? <span className="stat-sub">{formatInt(m.no_calls)} no-calls</span> : null}
        </div>
        <div className="stat">
          <dt>Call rate</dt>
          <dd className="tabular">{callRate !== null ? formatPercent(callRate, 1) : '—'}</dd>
          {callRate !== null ? <span className="stat-sub">{callRate >= 0.97 ? 'Good quality' : callRate >= 0.9 ? 'Acceptable' : 'Low: results less reliable'}</span> : null}
        </div>
        <div className="stat">
          <dt>Inferred sex</dt>
          <dd>{sexName(m.inferred_sex)}</dd>
          <span className="stat-sub">From X and Y markers</span>
        </div>
      </dl>
      {props.length > 0 ? (
        <div className="ancestry">
          <div className="ancestry-title">
            <h3>Genetic ancestry</h3>
            <span className="muted small">
              Closest reference population: <strong>{populationName(ancestry?.population)}</strong>
            </span>
          </div>
          <div className="ancestry-bar" role="img" aria-label={`Ancestry estimate: ${props.map(([k, v]) => `${populationName(k)} ${formatPercent(v)}`).join(', ')}`}>
            {props.map(([k, v]) => (
              <span key={k} className={`ancestry-seg pop-${POP_ORDER.includes(k) ? k : 'other'}`} style={{ width: `${v * 100}%` }} title={`${populationName(k)} ${formatPercent(v)}`} />
            ))}
          </div>
          <ul className="ancestry-legend">
            {props.map(([k, v]) => (
              <li key={k}>
                <span className={`legend-dot pop-${POP_ORDER.includes(k) ? k : 'other'}`} aria-hidden="true" />
                {populationName(k)} <span className="tabular muted">{formatPercent(v)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
