/** A person's picture with, optionally, their presence dot (described in words for screen readers). */
import { useState } from 'react';
import { t } from '../i18n';
import { usePresence, useUser } from '../people/hooks';
import type { PresenceStatus } from '../people/presence';
import '../styles/ui.css';

export function avatarUrl(user: { user_id: number; avatar_url?: string | null } | undefined, userId: number): string {
  return user?.avatar_url || `/avatar/${userId}`;
}

export function PresenceDot({ status }: { status: PresenceStatus | undefined }) {
  if (!status) return null;
  return <span className={`presence-dot presence-${status}`} role="img" aria-label={t(`ui.presence.${status}` as const)} title={t(`ui.presence.${status}` as const)} />;
}

export function Avatar({ userId, size = 32, presence = false, className }: { userId: number; size?: number; presence?: boolean; className?: string }) {
  const user = useUser(userId);
  const status = usePresence(userId);
  const src = avatarUrl(user, userId);
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <span className={`avatar-wrap${className ? ` ${className}` : ''}`} style={{ width: size, height: size }}>
      {failed === src ? (
        // A picture that cannot load: the person's initial on a colour of their own.
        <span className="avatar-img avatar-initial" style={{ background: `hsl(${(userId * 67) % 360} 45% 45%)`, fontSize: size * 0.5 }} aria-hidden="true">
          {(user?.full_name ?? '?').slice(0, 1).toUpperCase()}
        </span>
      ) : (
        <img className="avatar-img" src={src} alt="" width={size} height={size} loading="lazy" onError={() => setFailed(src)} />
      )}
      {presence && <PresenceDot status={status} />}
    </span>
  );
}
