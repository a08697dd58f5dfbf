/** Left column: the app, its profiles with their state at a glance, and settings. */
import { useEffect, useState } from 'react';
import type { GenotypeMetadata, Profile } from '../../../shared/api.js';
import { formatInt, profileName, vendorName } from '../lib/format.js';
import { pickFiles } from '../lib/file-picker.js';
import { openDialog } from '../state/dialogs.js';
import { useJobs } from '../state/jobs.js';
import { hasFile, isBusy, useGenotypes, useProfileList } from '../state/profiles.js';
import { navigate, useRouter } from '../state/router.js';
import { Avatar } from './Avatar.js';
import { GearIcon, Logo, MoreIcon, PlusIcon, ShieldIcon, UploadIcon } from './icons.js';

function profileSubtitle(
  g: GenotypeMetadata | undefined,
  uploading: boolean,
): { text: string; tone?: 'busy' | 'error' } {
  if (uploading) return { text: 'Importing…', tone: 'busy' };
  if (!hasFile(g)) return { text: g ? 'No DNA file yet' : '…' };
  const m = g.metadata;
  if (m.status === 'uploaded' || m.status === 'processing') return { text: 'Reading DNA file…', tone: 'busy' };
  if (m.status === 'failed' && typeof m.snp_count !== 'number')
    return { text: 'File could not be read', tone: 'error' };
  const count = typeof m.snp_count === 'number' ? `${formatInt(m.snp_count)} markers` : '';
  return { text: [vendorName(m.vendor), count].filter(Boolean).join(' · ') };
}

export function Sidebar() {
  const { profiles, loaded } = useProfileList();
  const genotypes = useGenotypes();
  const jobs = useJobs((s) => s.jobs);
  const route = useRouter((s) => s.route);
  const analyzeFiles = useJobs((s) => s.analyzeFiles);
  const activeId = route.name === 'profile' || route.name === 'trait' || route.name === 'report' ? route.id : null;

  // Under 900 px the sidebar is a top bar; the menu opens it and closes again on navigation.
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [route]);

  const addFiles = async () => {
    const files = await pickFiles();
    if (files.length) analyzeFiles(files);
  };

  return (
    <nav className={`sidebar ${open ? 'is-open' : ''}`} aria-label="Main">
      <div className="sidebar-bar">
        <a className="brand" href="#/" onClick={(e) => (e.preventDefault(), navigate({ name: 'home' }))}>
          <Logo size={28} />
          <span className="brand-name">Traitscope</span>
        </a>
        <button
          type="button"
          className="button button-small sidebar-toggle"
          aria-expanded={open}
          aria-controls="sidebar-menu"
          onClick={() => setOpen(!open)}
        >
          <MoreIcon size={16} /> Menu
        </button>
      </div>
      <div className="sidebar-collapsible" id="sidebar-menu">
        <button type="button" className="button button-primary sidebar-cta" onClick={() => void addFiles()}>
          <UploadIcon size={16} />
          Add DNA file
        </button>

        <div className="sidebar-section">
          <div className="sidebar-heading">
            <p id="profiles-heading" className="sidebar-title">
              Profiles
            </p>
            <button
              type="button"
              className="icon-button small"
              aria-label="New profile"
              title="New profile"
              onClick={() => openDialog({ kind: 'new-profile' })}
            >
              <PlusIcon size={16} />
            </button>
          </div>
          {loaded && profiles.length === 0 ? (
            <p className="sidebar-empty">No profiles yet. Drop a DNA file anywhere to create one.</p>
          ) : null}
          <ul className="profile-list" aria-labelledby="profiles-heading">
            {profiles.map((p: Profile) => {
              const uploading = jobs.some(
                (j) => j.profileId === p.id && (j.stage === 'uploading' || j.stage === 'creating'),
              );
              const sub = profileSubtitle(genotypes[p.id], uploading);
              const busy = uploading || isBusy(genotypes[p.id]);
              return (
                <li key={p.id}>
                  <a
                    href={`#/profiles/${p.id}`}
                    className={`profile-link ${activeId === p.id ? 'is-active' : ''}`}
                    aria-current={activeId === p.id ? 'page' : undefined}
                    onClick={(e) => (e.preventDefault(), navigate({ name: 'profile', id: p.id }))}
                  >
                    <Avatar profile={p} size={32} />
                    <span className="profile-link-text">
                      <span className="profile-link-name">{profileName(p)}</span>
                      <span className={`profile-link-sub ${sub.tone ? `tone-${sub.tone}` : ''}`}>
                        {/* Still, not spinning: the page or the file tray shows the progress, and
                            two animations far apart redraw the whole window on every frame. */}
                        {busy ? <span className="busy-dot" aria-hidden="true" /> : null}
                        {sub.text}
                      </span>
                    </span>
                  </a>
                </li>
              );
            })}
          </ul>
        </div>

        <div className="sidebar-footer">
          <a
            href="#/settings"
            className={`nav-link ${route.name === 'settings' ? 'is-active' : ''}`}
            aria-current={route.name === 'settings' ? 'page' : undefined}
            onClick={(e) => (e.preventDefault(), navigate({ name: 'settings' }))}
          >
            <GearIcon size={17} />
            Settings
          </a>
          <p className="privacy-note">
            <ShieldIcon size={15} />
            Offline. Your DNA stays on this computer.
          </p>
        </div>
      </div>
    </nav>
  );
}
