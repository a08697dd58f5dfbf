/** Create or edit a profile: every writable field, with gender and ethnicity as readable choices. */
import { useState } from 'react';
import { ETHNICITIES, GENDERS, ProfileInput, type Profile } from '../../../shared/api.js';
import { useProfiles } from '../state/profiles.js';
import { Dialog } from './Dialog.js';
import { Spinner } from './icons.js';

interface Props {
  profile?: Profile;
  onClose(): void;
  onSaved?(profile: Profile): void;
}

type Errors = Partial<Record<'first_name' | 'last_name' | 'age' | 'form', string>>;

const ETHNICITY_HINTS: Record<number, string> = {
  0: 'Percentiles then use the ancestry inferred from the DNA file.',
};

export function ProfileDialog({ profile, onClose, onSaved }: Props) {
  const { create, update } = useProfiles.getState();
  const [firstName, setFirstName] = useState(profile?.first_name ?? '');
  const [lastName, setLastName] = useState(profile?.last_name ?? '');
  const [gender, setGender] = useState(profile?.gender ?? 0);
  const [age, setAge] = useState(profile?.age === null || profile?.age === undefined ? '' : String(profile.age));
  const [ethnicity, setEthnicity] = useState(profile?.ethnicity ?? 0);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const ageText = age.trim();
    if (ageText && !/^\d+$/.test(ageText)) {
      setErrors({ age: 'Age must be a whole number of years, from 0 to 150.' });
      return;
    }
    const input = {
      first_name: firstName.trim(),
      last_name: lastName.trim(),
      gender,
      age: ageText ? Number(ageText) : null,
      ethnicity,
    };
    // The same schema the service validates with, so messages match.
    const parsed = ProfileInput.safeParse(input);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        next[field] ??= issue.message.replace(/^(first_name|last_name|age)/, (f) => ({ first_name: 'First name', last_name: 'Last name', age: 'Age' })[f] ?? f);
      }
      setErrors(next);
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const saved = profile ? await update(profile.id, parsed.data) : await create(parsed.data);
      onSaved?.(saved);
      onClose();
    } catch (err) {
      setErrors({ form: (err as Error).message });
      setBusy(false);
    }
  };

  const fieldError = (name: keyof Errors) =>
    errors[name] ? (
      <span className="field-error" id={`pf-${name}-error`} role="alert">
        {errors[name]}
      </span>
    ) : null;

  return (
    <Dialog
      title={profile ? 'Edit profile' : 'New profile'}
      description={profile ? undefined : 'A profile is one person. You can add their DNA file right after.'}
      onClose={onClose}
      busy={busy}
      testId="profile-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form="profile-form" className="button button-primary" disabled={busy}>
            {busy ? <Spinner size={14} /> : null}
            {profile ? 'Save changes' : 'Create profile'}
          </button>
        </>
      }
    >
      <form
        id="profile-form"
        className="form-grid"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="field">
          <span className="field-label">First name</span>
          <input
            className="input"
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
            maxLength={100}
            autoFocus
            autoComplete="off"
            aria-invalid={!!errors.first_name}
            aria-describedby={errors.first_name ? 'pf-first_name-error' : undefined}
          />
          {fieldError('first_name')}
        </label>
        <label className="field">
          <span className="field-label">Last name</span>
          <input
            className="input"
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
            maxLength={100}
            autoComplete="off"
            aria-invalid={!!errors.last_name}
            aria-describedby={errors.last_name ? 'pf-last_name-error' : undefined}
          />
          {fieldError('last_name')}
        </label>

        <fieldset className="field field-wide">
          <legend className="field-label">Gender</legend>
          <div className="segmented" role="radiogroup" aria-label="Gender">
            {GENDERS.map((label, value) => (
              <label key={label} className={`segment ${gender === value ? 'is-selected' : ''}`}>
                <input type="radio" name="gender" value={value} checked={gender === value} onChange={() => setGender(value)} />
                {value === 0 ? 'Not specified' : label}
              </label>
            ))}
          </div>
        </fieldset>

        <label className="field">
          <span className="field-label">Age</span>
          <input
            className="input"
            inputMode="numeric"
            value={age}
            onChange={(e) => setAge(e.target.value)}
            placeholder="Optional"
            aria-invalid={!!errors.age}
            aria-describedby={errors.age ? 'pf-age-error' : undefined}
          />
          {fieldError('age')}
        </label>

        <label className="field">
          <span className="field-label">Ethnicity</span>
          <select className="input select" value={ethnicity} onChange={(e) => setEthnicity(Number(e.target.value))} aria-describedby="pf-eth-hint">
            {ETHNICITIES.map((label, value) => (
              <option key={label} value={value}>
                {value === 0 ? 'Not specified' : label}
              </option>
            ))}
          </select>
        </label>
        <p className="field-hint field-wide" id="pf-eth-hint">
          Ethnicity chooses the reference population that percentiles compare with. {ETHNICITY_HINTS[ethnicity] ?? ''}
        </p>

        {errors.form ? (
          <p className="form-error field-wide" role="alert">
            {errors.form}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
