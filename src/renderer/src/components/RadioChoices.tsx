/** The two ways forms here offer one choice among a few: a list of options with hints, and a segmented row. */
import type { ReactNode } from 'react';

/** One option of a radio list: the button, its title, and a hint below the title. */
export function RadioOption({
  name,
  checked,
  onSelect,
  title,
  hint,
  className = 'choice',
}: {
  name: string;
  checked: boolean;
  onSelect: () => void;
  title: ReactNode;
  hint?: ReactNode;
  /** `choice` in a choice list, `check` among form fields. */
  className?: 'choice' | 'check';
}) {
  return (
    <label className={className}>
      <input type="radio" name={name} checked={checked} onChange={onSelect} />
      <span>
        {title}
        {hint !== undefined ? <span className="muted small">{hint}</span> : null}
      </span>
    </label>
  );
}

/** A row of segments, one of them selected: for two to four short options. */
export function Segmented<T extends string | number>({
  label,
  name,
  options,
  value,
  onChange,
  compact,
}: {
  /** What the group chooses, for screen readers. */
  label: string;
  name: string;
  options: ReadonlyArray<readonly [T, ReactNode]>;
  value: T;
  onChange: (value: T) => void;
  compact?: boolean;
}) {
  return (
    <div className={compact ? 'segmented compact' : 'segmented'} role="radiogroup" aria-label={label}>
      {options.map(([option, text]) => (
        <label key={option} className={`segment ${value === option ? 'is-selected' : ''}`}>
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} />
          {text}
        </label>
      ))}
    </div>
  );
}
