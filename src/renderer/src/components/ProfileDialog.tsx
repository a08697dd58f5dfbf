/** Create or edit a profile: every writable field, with gender and ethnicity as readable choices. */
import { useState } from 'react';
import type { Profile, ProfileInput } from '../../../shared/api.js';
import { ETHNICITIES, GENDERS, profileFieldProblems } from '../../../shared/profile-fields.js';
import { POPULATION_NAMES } from '../lib/format.js';
import { saveProfileChange } from '../state/profile-changes.js';
import { createProfile, genotypeNow } from '../state/profiles.js';
import { FormDialog } from './FormDialog.js';
import { Segmented } from './RadioChoices.js';
import { TextField } from './TextField.js';

interface Props {
  profile?: Profile;
  onClose: () => void;
  onSaved?: (profile: Profile) => void;
}

type Errors = Partial<Record<'first_name' | 'last_name' | 'age' | 'form', string>>;

/** What "Not specified" does for this profile, saying only what is true (no promise of an inference that did not happen). */
function unspecifiedHint(profile: Profile | undefined): string {
  const g = profile ? genotypeNow(profile.id) : undefined;
  const m = g && 'metadata' in g ? (g.metadata as Record<string, unknown>) : null;
  const ancestry = m?.ancestry as { sufficient?: boolean; best?: string | null } | null | undefined;
  const reference = m?.reference as { source?: string; label?: string } | undefined;
  if (reference?.source === 'inferred' || (ancestry?.sufficient && ancestry.best)) {
    return `Percentiles then use the ancestry estimated from the DNA file${ancestry?.best ? ` (closest: ${POPULATION_NAMES[ancestry.best] ?? ancestry.best})` : ''}.`;
  }
  if (m && typeof m.snp_count === 'number') {
    return 'This DNA file holds too little ancestry evidence for an estimate: results are compared with the European reference, marked as assumed. Choosing a population here is better.';
  }
  return 'Percentiles then use an ancestry estimate from the DNA file when it holds enough evidence; otherwise a reference is assumed and you will be asked to choose.';
}

export function ProfileDialog({ profile, onClose, onSaved }: Props) {
  const [firstName, setFirstName] = useState(profile?.first_name ?? '');
  const [lastName, setLastName] = useState(profile?.last_name ?? '');
  const [gender, setGender] = useState(profile?.gender ?? 0);
  const [ethnicity, setEthnicity] = useState(profile?.ethnicity ?? 0);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const input: ProfileInput = {
      first_name: firstName.trim(),
      last_name: lastName.trim(),
      gender,
      // Age is not used by any result (docs/science.md): kept as it is, never asked.
      age: profile?.age ?? null,
      ethnicity,
    };
    // The service's own limits and messages (shared/profile-fields.ts), without its schemas.
    const problems = Object.entries(profileFieldProblems(input));
    if (problems.length > 0) {
      const next: Errors = {};
      for (const [field, message] of problems) {
        next[field as keyof Errors] ??= message.replace(
          /^(first_name|last_name|age)/,
          (f) => ({ first_name: 'First name', last_name: 'Last name', age: 'Age' })[f] ?? f,
        );
      }
      setErrors(next);
      // The first invalid field takes focus, so its message (aria-describedby) is read once.
      const first = (['first_name', 'last_name'] as const).find((f) => next[f]);
      if (first) requestAnimationFrame(() => document.getElementById(`pf-${first}`)?.focus());
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const saved = profile ? await saveProfileChange(profile, input) : await createProfile(input);
      onSaved?.(saved);
      onClose();
    } catch (err) {
      setErrors({ form: (err as Error).message });
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title={profile ? 'Edit profile' : 'New profile'}
      description={profile ? undefined : 'A profile is one person. You can add their DNA file right after.'}
      onClose={onClose}
      busy={busy}
      testId="profile-dialog"
      formId="profile-form"
      formClassName="form-grid"
      noValidate
      submitLabel={profile ? 'Save changes' : 'Create profile'}
      onSubmit={() => void submit()}
    >
      <TextField
        id="pf-first_name"
        label="First name"
        value={firstName}
        onChange={setFirstName}
        error={errors.first_name}
      />
      <TextField id="pf-last_name" label="Last name" value={lastName} onChange={setLastName} error={errors.last_name} />

      <fieldset className="field field-wide">
        <legend className="field-label">Sex</legend>
        <Segmented
          label="Sex"
          name="gender"
          value={gender}
          onChange={setGender}
          options={GENDERS.map((label, value) => [value, value === 0 ? 'Not specified' : label] as const)}
        />
        <p className="field-hint">
          Used for sex-specific results (for example prostate or ovarian cancer). Not specified: the DNA file decides.
        </p>
      </fieldset>

      <label className="field">
        <span className="field-label">Ethnicity</span>
        <select
          className="input select"
          value={ethnicity}
          onChange={(e) => setEthnicity(Number(e.target.value))}
          aria-describedby="pf-eth-hint"
        >
          {ETHNICITIES.map((label, value) => (
            <option key={label} value={value}>
              {value === 0 ? 'Not specified' : label}
            </option>
          ))}
        </select>
      </label>
      <p className="field-hint field-wide" id="pf-eth-hint">
        Ethnicity chooses the reference population that percentiles compare with.{' '}
        {ethnicity === 0 ? unspecifiedHint(profile) : ''}
      </p>

      {errors.form ? (
        <p className="form-error field-wide" role="alert">
          {errors.form}
        </p>
      ) : null}
    </FormDialog>
  );
}
