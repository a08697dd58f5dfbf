/** What a change of reference or sex did to the results ("Recalculated against …"), until dismissed. */
import { XIcon } from '../../components/icons.js';
import { useProfileChanges } from '../../state/profile-changes.js';

export function RecalculatedNotice({ profileId }: { profileId: string }) {
  const notice = useProfileChanges((s) => s.notices[profileId]);
  if (!notice) return null;
  return (
    <div className="banner banner-info" role="status" data-testid="recalculated">
      <div>
        <strong>{notice.message}</strong>
      </div>
      <div className="banner-actions">
        <button
          type="button"
          className="icon-button small"
          aria-label="Dismiss"
          onClick={() => useProfileChanges.getState().dismiss(profileId)}
        >
          <XIcon size={14} />
        </button>
      </div>
    </div>
  );
}
