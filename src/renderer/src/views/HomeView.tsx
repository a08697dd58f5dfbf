/** The start screen: what Traitscope does and a big place to drop a file; then the profiles. */
import { useDocumentTitle } from '../lib/document-title.js';
import { Avatar } from '../components/Avatar.js';
import { FileIcon, PlusIcon, ShieldIcon, UploadIcon } from '../components/icons.js';
import { pickFiles } from '../lib/file-picker.js';
import { formatInt, profileFacts, profileName, vendorName } from '../lib/format.js';
import { openDialog } from '../state/dialogs.js';
import { offerFileTo, useJobs } from '../state/jobs.js';
import { hasFile, useGenotypes, useProfileList } from '../state/profiles.js';
import { navigate } from '../state/router.js';
import { useSettings } from '../state/settings.js';
import { WELL_KNOWN_SOURCES } from '../../../shared/vendors.js';

/** A place to drop or choose a file: for new profiles, or for one profile that has no DNA file yet. */
export function DropCard({ title, compact, profileId }: { title?: string; compact?: boolean; profileId?: string }) {
  const choose = async () => {
    const files = await pickFiles({ multiple: !profileId });
    if (files.length === 0) return;
    if (profileId) offerFileTo(profileId, files[0]);
    else useJobs.getState().analyzeFiles(files);
  };
  return (
    <div className={`drop-card ${compact ? 'is-compact' : ''}`} data-testid="drop-card">
      <div className="drop-card-icon" aria-hidden="true">
        <UploadIcon size={compact ? 22 : 28} />
      </div>
      <h2>{title ?? 'Drop your DNA raw-data file here'}</h2>
      <p className="muted">
        Or choose it from your computer. Zip and gz files are fine, there's no need to unpack them.
      </p>
      <div className="drop-card-actions">
        <button type="button" className="button button-primary" onClick={() => void choose()}>
          <FileIcon size={16} />
          Choose file…
        </button>
      </div>
      <ul className="vendor-list" aria-label="Supported sources">
        {WELL_KNOWN_SOURCES.map((v) => (
          <li key={v}>{v}</li>
        ))}
      </ul>
    </div>
  );
}

/** "more than 2,000 traits", from the catalog the service actually ships. */
function traitCountText(n: number | undefined): string {
  if (!n) return 'hundreds of traits';
  if (n < 100) return `${n} traits`;
  return `more than ${formatInt(Math.floor(n / 100) * 100)} traits`;
}

export function HomeView() {
  useDocumentTitle('Profiles');
  const { profiles } = useProfileList();
  const genotypes = useGenotypes();
  const traitCount = useSettings((s) => s.info?.catalog.traits);

  return (
    <main className="page home" aria-labelledby="home-title">
      <section className="hero">
        <h1 id="home-title">Your genome, read privately</h1>
        <p className="hero-lead">
          Traitscope reads the raw data file from your DNA test and shows what published research says about{' '}
          {traitCountText(traitCount)}, from height to cholesterol. Everything runs on this computer: nothing is sent
          anywhere.
        </p>
        <p className="hero-trust">
          <ShieldIcon size={16} /> Works offline · No account · Delete everything at any time
        </p>
      </section>

      <DropCard />

      {profiles.length > 0 ? (
        <section className="home-profiles" aria-labelledby="home-profiles-title">
          <div className="section-header">
            <h2 id="home-profiles-title">Profiles</h2>
            <button type="button" className="button button-ghost" onClick={() => openDialog({ kind: 'new-profile' })}>
              <PlusIcon size={16} /> New profile
            </button>
          </div>
          <ul className="profile-cards">
            {profiles.map((p) => {
              const g = genotypes[p.id];
              const m = hasFile(g) ? g.metadata : null;
              return (
                <li key={p.id}>
                  <a
                    className="profile-card"
                    href={`#/profiles/${p.id}`}
                    onClick={(e) => (e.preventDefault(), navigate({ name: 'profile', id: p.id }))}
                  >
                    <Avatar profile={p} size={40} />
                    <span className="profile-card-text">
                      <strong>{profileName(p)}</strong>
                      <span className="muted">{profileFacts(p) || 'No details yet'}</span>
                      <span className="muted small">
                        {m && typeof m.snp_count === 'number'
                          ? `${vendorName(m.vendor)} · ${formatInt(m.snp_count)} markers`
                          : 'No DNA file yet'}
                      </span>
                    </span>
                  </a>
                </li>
              );
            })}
          </ul>
        </section>
      ) : (
        <section className="how-to" aria-labelledby="howto-title">
          <h2 id="howto-title">Where do I get my raw data?</h2>
          <ol>
            <li>
              Sign in to your DNA testing service and look for <em>Download raw data</em> (23andMe: Settings › 23andMe
              data; AncestryDNA: Settings › Download DNA data).
            </li>
            <li>Save the file they send you. It is usually a .zip or .txt file of 5 to 30 MB.</li>
            <li>Drop it on this window. Traitscope creates a profile and shows results in under a minute.</li>
          </ol>
        </section>
      )}
    </main>
  );
}
