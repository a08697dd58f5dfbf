/** Five segments, the person's level lit: a glanceable picture of levels 1–5. */
export function LevelMeter({ level, label }: { level: number; label?: string }) {
  return (
    <span className="level-meter" role="img" aria-label={label ?? `Level ${level} of 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} className={`level-seg ${n === level ? `is-on lvl-${n}` : ''}`} />
      ))}
    </span>
  );
}

export function LevelBadge({ level, label }: { level: number; label: string }) {
  return <span className={`level-badge lvl-${level}`}>{label}</span>;
}
