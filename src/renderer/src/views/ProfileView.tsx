/** One person: who they are, their DNA file, the file being analyzed, and their results. */
import { useEffect, useState } from 'react';
import { GenotypeCard } from '../components/GenotypeCard.js';
import { Spinner } from '../components/icons.js';
import { AssumedReferenceBanner, ReferenceDialog } from '../components/ReferenceChoice.js';
import { useDocumentTitle } from '../lib/document-title.js';
import { pickFiles } from '../lib/file-picker.js';
import { profileName } from '../lib/format.js';
import { markStepPainted } from '../lib/timeline.js';
import { latestJobFor, offerFileTo, useJobs } from '../state/jobs.js';
import {
  hasFile,
  hasUsableGenotype,
  isBusy,
  useFailureNotices,
  useGenotype,
  useProfile,
  useProfileList,
} from '../state/profiles.js';
import { useProfileTraits } from '../state/traits.js';
import { NotFound } from './NotFound.js';
import { ImportStatus } from './profile/ImportStatus.js';
import { ProfileHeader } from './profile/ProfileHeader.js';
import { ProfileResults } from './profile/ProfileResults.js';
import { RecalculatedNotice } from './profile/RecalculatedNotice.js';
import { referenceOf } from './profile/reference-of.js';

export function ProfileView({ id }: { id: string }) {
  const profile = useProfile(id);
  const { loaded } = useProfileList();
  const genotype = useGenotype(id);
  const job = useJobs((s) => latestJobFor(s.jobs, id));
  const { data: lists } = useProfileTraits(id);
  const [choosingReference, setChoosingReference] = useState(false);
  useDocumentTitle(profile ? profileName(profile) : 'Profile');

  // For DevTools and the UI bench: when a list of results has been drawn.
  useEffect(() => {
    if (lists) markStepPainted('results-shown', id);
  }, [id, lists]);

  if (!profile)
    return loaded ? (
      <NotFound what="profile" />
    ) : (
      <main className="page loading-page">
        <Spinner size={22} label="Loading" />
      </main>
    );

  const usable = hasUsableGenotype(genotype);
  const busy = isBusy(genotype) || job?.stage === 'uploading' || job?.stage === 'creating';
  const { reference, estimate } = referenceOf(genotype, lists);
  const replace = async () => {
    const [file] = await pickFiles({ multiple: false });
    if (!file) return;
    useFailureNotices.getState().dismiss(id);
    // Asks first when the profile has readable DNA data or the file's name names someone else.
    offerFileTo(id, file);
  };

  return (
    <main className="page profile-page" aria-labelledby="profile-title" data-testid="profile-view">
      <ProfileHeader profile={profile} genotype={genotype} busy={busy} onReplace={() => void replace()} />
      <ImportStatus profile={profile} genotype={genotype} job={job} onReplace={() => void replace()} />
      {usable && reference?.source === 'assumed' ? (
        <AssumedReferenceBanner reference={reference} onChoose={() => setChoosingReference(true)} />
      ) : null}
      {choosingReference ? (
        <ReferenceDialog
          profile={profile}
          estimate={estimate}
          current={reference}
          onClose={() => setChoosingReference(false)}
        />
      ) : null}
      <RecalculatedNotice profileId={id} />
      {usable && hasFile(genotype) ? (
        <GenotypeCard
          profile={profile}
          genotype={genotype}
          reference={reference}
          compact={Object.keys(lists?.results ?? {}).length > 0}
          cutLine={job?.cutLine}
        />
      ) : null}
      {usable && !busy ? <ProfileResults profile={profile} reference={reference} /> : null}
    </main>
  );
}
