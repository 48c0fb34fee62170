/**
 * A person's name that opens their user card. Everywhere a name or picture is shown, this is
 * what makes it clickable (and reachable by keyboard).
 */
import type { ReactNode } from 'react';
import { t } from '../i18n';
import { openUserCard } from '../people/card';
import { useUser, useUserStatus } from '../people/hooks';
import { StatusEmoji } from './StatusEmoji';
import '../styles/ui.css';

/** `label`: for content without words (a picture alone), the button's name. */
export function UserName({ userId, fallback, children, className, showStatus = false, label }: { userId: number; fallback?: string; children?: ReactNode; className?: string; showStatus?: boolean; label?: boolean }) {
  const user = useUser(userId);
  const status = useUserStatus(userId);
  const name = user?.full_name ?? fallback ?? t('ui.unknown_user');
  return (
    <button
      type="button"
      className={`user-name-button${className ? ` ${className}` : ''}`}
      onClick={(e) => openUserCard(userId, e.currentTarget)}
      aria-label={label ? t('ui.open_card', { name }) : undefined}
      data-user-id={userId}
    >
      {children ?? name}
      {showStatus && status && <StatusEmoji status={status} />}
    </button>
  );
}
