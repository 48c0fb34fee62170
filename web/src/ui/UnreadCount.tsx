/** An unread count badge, read out as "3 unread"; dimmed when the messages are in muted conversations. */
import { t } from '../i18n';
import '../styles/ui.css';

export function UnreadCount({ n, muted = false, mention = false }: { n: number; muted?: boolean; mention?: boolean }) {
  if (n <= 0) return null;
  return (
    <span className={`unread-count${muted ? ' unread-muted' : ''}${mention ? ' unread-mention' : ''}`} aria-label={t('nav.unread', { count: n })}>
      {n > 999 ? '999+' : n}
    </span>
  );
}
