/** A person's picture with, optionally, their presence dot (described in words for screen readers). */
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
  return (
    <span className={`avatar-wrap${className ? ` ${className}` : ''}`} style={{ width: size, height: size }}>
      <img className="avatar-img" src={avatarUrl(user, userId)} alt="" width={size} height={size} loading="lazy" />
      {presence && <PresenceDot status={status} />}
    </span>
  );
}
