/** The dialogs any screen (or the application menu) can open. */
import { formatBytes } from '../../../shared/format-bytes.js';
import { profileName } from '../lib/format.js';
import { otherPersonInFileName } from '../lib/names.js';
import { useDialogs } from '../state/dialogs.js';
import { offerFileTo, useJobs } from '../state/jobs.js';
import { hasUsableGenotype, removeProfile, useGenotypes, useProfileList } from '../state/profiles.js';
import { navigate } from '../state/router.js';
import { toast } from '../state/toasts.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { ProfileDialog } from './ProfileDialog.js';

export function AppDialogs() {
  const dialog = useDialogs((s) => s.dialog);
  const close = useDialogs((s) => s.close);
  const { profiles } = useProfileList();
  const genotypes = useGenotypes();
  if (!dialog) return null;

  switch (dialog.kind) {
    case 'new-profile':
      return <ProfileDialog onClose={close} onSaved={(p) => navigate({ name: 'profile', id: p.id })} />;
    case 'edit-profile':
      return <ProfileDialog profile={dialog.profile} onClose={close} onSaved={() => toast.success('Profile saved.')} />;
    case 'delete-profile': {
      const p = dialog.profile;
      return (
        <ConfirmDialog
          testId="delete-profile-dialog"
          title={`Delete ${profileName(p)}?`}
          description={
            <p>
              This permanently removes the profile, its DNA file and all its results from this computer. It cannot be
              undone.
            </p>
          }
          confirmLabel="Delete profile"
          onClose={close}
          onConfirm={async () => {
            await removeProfile(p.id);
            navigate({ name: 'home' }, { replace: true });
            toast.success(`${profileName(p)} was deleted.`);
          }}
        />
      );
    }
    case 'replace-genotype': {
      const p = profiles.find((x) => x.id === dialog.profileId);
      const name = p ? profileName(p) : 'this profile';
      const replacing = hasUsableGenotype(genotypes[dialog.profileId]);
      const otherPerson = p ? otherPersonInFileName(dialog.file.name, p) : null;
      const otherProfile = otherPerson
        ? profiles.find((x) => profileName(x).toLowerCase() === otherPerson.toLowerCase())
        : undefined;
      return (
        <ConfirmDialog
          testId="replace-dialog"
          tone="default"
          title={
            otherPerson
              ? `Whose DNA file is this?`
              : replacing
                ? `Replace ${name}’s DNA file?`
                : `Add this DNA file to ${name}?`
          }
          description={
            <>
              {otherPerson ? (
                <div className="banner banner-warn" data-testid="other-person-warning">
                  <div>
                    <p>
                      The file’s name, <strong>{dialog.file.name}</strong>, suggests it belongs to{' '}
                      <strong>{otherPerson}</strong>, not {name}. Choose the profile it belongs to.
                    </p>
                  </div>
                </div>
              ) : null}
              <p>
                Traitscope will read <strong>{dialog.file.name}</strong> ({formatBytes(dialog.file.size)}) and{' '}
                {replacing ? 'recompute' : 'compute'} {name}’s results from it.
              </p>
              <p className="muted">
                If the file can’t be read, nothing changes{replacing ? ': the current DNA data and results stay' : ''}.
              </p>
            </>
          }
          confirmLabel={otherPerson ? `It is ${name}’s` : replacing ? 'Replace DNA file' : 'Add DNA file'}
          extra={
            <>
              {otherProfile ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    close();
                    offerFileTo(otherProfile.id, dialog.file);
                  }}
                >
                  It is {profileName(otherProfile)}’s
                </button>
              ) : null}
              <button
                type="button"
                className="button"
                onClick={() => {
                  close();
                  useJobs.getState().analyzeFiles([dialog.file]);
                }}
              >
                {otherPerson && !otherProfile ? `New profile for ${otherPerson}` : 'New profile instead'}
              </button>
            </>
          }
          onClose={close}
          onConfirm={() => useJobs.getState().replaceGenotype(dialog.profileId, dialog.file)}
        />
      );
    }
  }
}
