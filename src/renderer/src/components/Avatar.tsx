import type { Profile } from '../../../shared/api.js';
import { avatarHue, initials } from '../lib/format.js';

export function Avatar({ profile, size = 32 }: { profile: Profile; size?: number }) {
  const hue = avatarHue(profile.id);
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.4, ['--avatar-hue' as string]: hue }}
    >
      {initials(profile)}
    </span>
  );
}
