/**
 * The scheduled messages view (`#scheduled`): reg.scheduled_messages by delivery time, kept
 * current by `scheduled_messages` events. Edit opens one in the compose box (saving it is a
 * PATCH, with the same time or a new one); Delete cancels it.
 */
import { useState } from 'react';
import type { ScheduledMessage } from '@chat/client';
import { errorText } from '../api';
import { navigate } from '../app/route';
import { t } from '../i18n';
import { useAppState } from '../state/store';
import { useTimeFormat } from '../ui/time';
import { Compose } from './Compose';
import { useTargetLabel } from './ComposeBar';
import { conversationHash } from './DraftsView';
import { deleteScheduled, scheduledTarget } from './scheduled';
import { openCompose } from './state';
import '../styles/compose.css';

function ScheduledItem({ message, onError }: { message: ScheduledMessage; onError: (msg: string) => void }) {
  const target = scheduledTarget(message);
  const label = useTargetLabel(target);
  const subs = useAppState((s) => s.reg!.subscriptions);
  const fmt = useTimeFormat();
  const [busy, setBusy] = useState(false);
  const edit = () => {
    const hash = conversationHash(target, subs);
    if (hash) navigate(hash);
    openCompose(target, { content: message.content, editingScheduled: { id: message.scheduled_message_id, at: message.scheduled_delivery_timestamp } });
  };
  const remove = () => {
    setBusy(true);
    deleteScheduled(message.scheduled_message_id).catch((err) => {
      setBusy(false);
      onError(errorText(err));
    });
  };
  return (
    <li className={`compose-list-item${message.failed ? ' failed' : ''}`} data-testid="scheduled-item">
      <header>
        <span className="where">{label}</span>
        <span className="meta">
          {message.failed ? `${t('scheduled.failed')} · ` : ''}
          <time dateTime={new Date(message.scheduled_delivery_timestamp * 1000).toISOString()}>{t('scheduled.sends_at', { time: fmt.full(message.scheduled_delivery_timestamp) })}</time>
        </span>
      </header>
      <div className="body rendered message-content" dangerouslySetInnerHTML={{ __html: message.rendered_content }} />
      <div className="actions">
        <button type="button" className="button" onClick={edit} disabled={busy} data-testid="scheduled-edit">
          {t('scheduled.edit')}
        </button>
        <button type="button" className="button danger" onClick={remove} disabled={busy} aria-label={t('scheduled.delete_one', { where: label })} data-testid="scheduled-delete">
          {t('scheduled.delete')}
        </button>
      </div>
    </li>
  );
}

export function ScheduledView() {
  const list = useAppState((s) => s.reg?.scheduled_messages) ?? [];
  const [error, setError] = useState<string>();
  const sorted = [...list].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  return (
    <section className="narrow" aria-labelledby="scheduled-title">
      <div className="compose-list-view">
        <h1 id="scheduled-title">{t('scheduled.title')}</h1>
        {error && <p role="alert" className="compose-error">{t('misc.error', { error })}</p>}
        {sorted.length === 0 ? (
          <p className="compose-list-empty">{t('scheduled.empty')}</p>
        ) : (
          <ul className="compose-list" aria-label={t('scheduled.title')}>
            {sorted.map((m) => (
              <ScheduledItem key={m.scheduled_message_id} message={m} onError={setError} />
            ))}
          </ul>
        )}
      </div>
      <Compose target={null} />
    </section>
  );
}
