/** The profile page's title (avatar, name, facts) and its actions: replace the file, report, edit, delete. */
import type { GenotypeMetadata, Profile } from '../../../../shared/api.js';
import { Avatar } from '../../components/Avatar.js';
import { FileIcon, PencilIcon, ReportIcon, TrashIcon } from '../../components/icons.js';
import { profileFacts, profileName } from '../../lib/format.js';
import { openDialog } from '../../state/dialogs.js';
import { hasFile, hasUsableGenotype } from '../../state/profiles.js';
import { navigate } from '../../state/router.js';

export function ProfileHeader({
  profile,
  genotype,
  busy,
  onReplace,
}: {
  profile: Profile;
  genotype: GenotypeMetadata | undefined;
  /** A file is on its way or being read: it cannot be replaced meanwhile. */
  busy: boolean;
  onReplace: () => void;
}) {
  const name = profileName(profile);
  return (
    <header className="page-header">
      <div className="page-title">
        <Avatar profile={profile} size={48} />
        <div>
          <h1 id="profile-title">{name}</h1>
          <p className="muted">{profileFacts(profile) || 'Add sex and ethnicity with Edit for better comparisons.'}</p>
        </div>
      </div>
      <div className="page-actions">
        {hasFile(genotype) ? (
          <button type="button" className="button" onClick={onReplace} disabled={busy}>
            <FileIcon size={16} /> Replace DNA file
          </button>
        ) : null}
        <button
          type="button"
          className="button"
          onClick={() => navigate({ name: 'report', id: profile.id })}
          disabled={!hasUsableGenotype(genotype)}
        >
          <ReportIcon size={16} /> Report
        </button>
        <button type="button" className="button" onClick={() => openDialog({ kind: 'edit-profile', profile })}>
          <PencilIcon size={16} /> Edit
        </button>
        <button
          type="button"
          className="icon-button bordered danger"
          aria-label={`Delete ${name}`}
          title="Delete profile"
          onClick={() => openDialog({ kind: 'delete-profile', profile })}
        >
          <TrashIcon size={17} />
        </button>
      </div>
    </header>
  );
}
