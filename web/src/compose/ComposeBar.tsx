/**
 * The closed compose box: a button to write to the conversation in view, "New topic" and
 * "New direct message", and the last notice (a message sent elsewhere, one scheduled).
 */
import { t } from '../i18n';
import { Icon } from '../ui/Icon';
import { useAppState } from '../state/store';
import { openCompose } from './state';
import type { ComposeTarget } from './types';

export interface ComposeNotice {
  text: string;
  link?: { href: string; label: string };
  error?: boolean;
}

export function useTargetLabel(target: ComposeTarget | null): string {
  const subs = useAppState((s) => s.reg?.subscriptions);
  const users = useAppState((s) => s.users);
  const emptyName = useAppState((s) => s.reg?.realm_empty_topic_display_name as string | undefined);
  if (!target) return '';
  if (target.type === 'stream') {
    const name = subs?.find((x) => x.stream_id === target.streamId)?.name;
    if (!name) return '';
    return `#${name} > ${target.topic || emptyName || t('compose.no_topic')}`;
  }
  return target.to.map((id) => users.get(id)?.full_name ?? `#${id}`).join(', ');
}

export function NoticeLine({ notice, onDismiss }: { notice: ComposeNotice | null; onDismiss: () => void }) {
  return (
    <div className="compose-notice" role={notice?.error ? 'alert' : 'status'} aria-live="polite">
      {notice && (
        <>
          <span>{notice.text}</span>
          {notice.link && <a href={notice.link.href}>{notice.link.label}</a>}
          <button type="button" className="icon-button" onClick={onDismiss} aria-label={t('compose.dismiss_notice')} title={t('compose.dismiss_notice')}>
            ×
          </button>
        </>
      )}
    </div>
  );
}

export function ComposeBar({ target, notice, onDismiss }: { target: ComposeTarget | null; notice: ComposeNotice | null; onDismiss: () => void }) {
  const label = useTargetLabel(target);
  const channelId = target?.type === 'stream' ? target.streamId : 0;
  return (
    <div className="compose-closed" data-testid="compose-closed">
      <NoticeLine notice={notice} onDismiss={onDismiss} />
      <div className="compose-bar">
        {target && label && (
          <button type="button" className="compose-reply-button" onClick={() => openCompose(target)} data-testid="compose-reply">
            {t('compose.placeholder', { to: label })}
          </button>
        )}
        {/* On a phone, beside the reply button, these two show as icons (their words stay for screen readers). */}
        <button type="button" className={`button compose-bar-new${target && label ? ' iconic' : ''}`} onClick={() => openCompose({ type: 'stream', streamId: channelId, topic: '' })} title={t('compose.new_topic')} data-testid="compose-new-topic">
          <Icon name="hash" className="compose-bar-icon" />
          <span className="compose-bar-label">{t('compose.new_topic')}</span>
        </button>
        <button type="button" className={`button compose-bar-new${target && label ? ' iconic' : ''}`} onClick={() => openCompose({ type: 'direct', to: [] })} title={t('compose.new_dm')} data-testid="compose-new-dm">
          <Icon name="at" className="compose-bar-icon" />
          <span className="compose-bar-label">{t('compose.new_dm')}</span>
        </button>
      </div>
    </div>
  );
}
