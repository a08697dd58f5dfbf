/**
 * Drug–gene results (docs/pharmacogenes.md): the profile's medication section and the
 * one-page medication card, shown only after the person chose to see disease results, like
 * the clinical single-variant findings. A result is a diplotype only when exactly one pair
 * of named alleles fits the file; otherwise the candidates, and what could not be read.
 */
import { useState } from 'react';
import type { PharmacogeneList, PharmacogeneResult } from '../../../shared/api.js';
import { api } from '../api/client.js';
import { useProfileResource } from '../lib/profile-resource.js';
import '../styles/medication-card.css';
import { ExternalLink } from './ExternalLink.js';
import { Spinner } from './icons.js';

/** The profile's drug–gene results; nothing is fetched while `enabled` is false (not opted in). */
export function usePharmacogenes(
  profileId: string,
  enabled = true,
): { data: PharmacogeneList | null; error: string | null } {
  return useProfileResource('pharmacogenes', api.pharmacogenes, profileId, enabled);
}

const STATUS_TEXT: Record<PharmacogeneResult['status'], string> = {
  called: 'Read',
  ambiguous: 'Several possible',
  not_determinable: 'Not determinable from this file',
  not_tested: 'Not on this chip',
};

/** The result in a few words: the diplotype, or how many pairs fit. */
export function resultText(r: PharmacogeneResult): string {
  if (r.diplotype) return r.diplotype;
  if (r.status === 'ambiguous')
    return r.candidates.length <= 3 ? r.candidates.join(' or ') : `${r.candidates.length} possible diplotypes`;
  return STATUS_TEXT[r.status];
}

/** What the file could not read for this gene, in a few words. */
export function unreadText(r: PharmacogeneResult): string {
  const gaps = r.positions.missing.length + r.positions.no_call.length;
  const total = gaps + r.positions.read.length;
  if (r.gene === 'CYP2D6') return 'Copy number and hybrids: invisible to a chip';
  if (gaps === 0) return 'Nothing';
  const unseen = r.alleles_unseen.length ? `; cannot see ${r.alleles_unseen.slice(0, 6).join(', ')}` : '';
  const more = r.alleles_unseen.length > 6 ? ` and ${r.alleles_unseen.length - 6} more` : '';
  return `${gaps} of ${total} positions${unseen}${more}`;
}

/** The one-page card: genes, diplotypes, phenotypes, what could not be read, versions. */
export function MedicationCard({ results, name }: { results: PharmacogeneList; name: string }) {
  const versions = [...new Set(results.map((r) => r.versions.definitions))].join(', ');
  const cautions = results[0]?.cautions ?? [];
  return (
    <section className="medication-card" aria-labelledby="medication-card-title" data-testid="medication-card">
      <h2 id="medication-card-title">Medication card – {name}</h2>
      <p className="mc-note">
        <strong>{cautions[0]?.text}</strong>
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Gene</th>
            <th scope="col">Result</th>
            <th scope="col">Phenotype</th>
            <th scope="col">Not read</th>
          </tr>
        </thead>
        <tbody>
          {results.map((r) => (
            <tr key={r.gene}>
              <th scope="row">{r.gene}</th>
              <td>{resultText(r)}</td>
              <td>{r.phenotype ?? (r.status === 'ambiguous' ? 'Differs between the possibilities' : '—')}</td>
              <td>{unreadText(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mc-note">
        {cautions[1]?.text} (PMID {cautions[1]?.pmid}). Read from a consumer DNA file by Traitscope with CPIC/PharmVar
        allele definitions {versions} (via PharmCAT). A missing position is never taken as the usual allele.
      </p>
    </section>
  );
}

function GeneResult({ r }: { r: PharmacogeneResult }) {
  return (
    <li className="pgx-gene" data-testid={`pgx-${r.gene}`}>
      <h3>
        {r.gene} <span className="pgx-status">{STATUS_TEXT[r.status]}</span>
      </h3>
      {r.status === 'called' || r.status === 'ambiguous' ? (
        <p className="small">
          {resultText(r)}
          {r.phenotype ? ` — ${r.phenotype}` : ''}
        </p>
      ) : null}
      <p className="muted small">{r.summary}</p>
      {r.medicines.length ? (
        <ul className="pgx-medicines small">
          {r.medicines.map((m) => (
            <li key={m.medicine}>
              <strong>{m.medicine}</strong>: {m.text}{' '}
              <ExternalLink href={`https://pubmed.ncbi.nlm.nih.gov/${m.pmid}/`} description={m.guideline}>
                PMID {m.pmid}
              </ExternalLink>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The profile's medication section; nothing is fetched until the person chose to see disease results. */
export function Pharmacogenes({ profileId, name, show }: { profileId: string; name: string; show: boolean }) {
  return (
    <section className="card" aria-labelledby="pgx-title" data-testid="pharmacogenes">
      <header className="card-header">
        <div>
          <h2 id="pgx-title">Medicines and your genes</h2>
          <p className="muted small">
            How your body may handle some common medicines, read from your file with CPIC and PharmVar definitions.
          </p>
        </div>
      </header>
      {show ? (
        <PharmacogeneResults profileId={profileId} name={name} />
      ) : (
        <p className="small">
          Drug–gene results are hidden with the disease results for this profile; show those to see them.
        </p>
      )}
    </section>
  );
}

function PharmacogeneResults({ profileId, name }: { profileId: string; name: string }) {
  const { data, error } = usePharmacogenes(profileId);
  const [card, setCard] = useState(false);
  const print = () => {
    document.body.classList.add('printing-medication-card');
    window.addEventListener('afterprint', () => document.body.classList.remove('printing-medication-card'), {
      once: true,
    });
    window.print();
  };
  if (error)
    return (
      <p className="inline-error" role="alert">
        {error}
      </p>
    );
  if (!data)
    return (
      <p className="muted">
        <Spinner size={14} /> Reading your drug–gene results…
      </p>
    );
  return (
    <>
      {data[0]?.cautions.map((c) => (
        <p key={c.text} className="small">
          <strong>{c.text}</strong>
          {c.pmid ? ` (PMID ${c.pmid})` : ''}
        </p>
      ))}
      <div className="pgx-actions">
        <button type="button" className="button" onClick={() => setCard((v) => !v)} aria-expanded={card}>
          {card ? 'Hide the medication card' : 'Show the medication card'}
        </button>
        {card ? (
          <button type="button" className="button" onClick={print}>
            Print the card
          </button>
        ) : null}
      </div>
      {card ? <MedicationCard results={data} name={name} /> : null}
      <ul className="pgx-list">
        {data.map((r) => (
          <GeneResult key={r.gene} r={r} />
        ))}
      </ul>
    </>
  );
}
