/**
 * Moving messages: a new topic, and where allowed another channel, for this message, it and
 * later ones, or the whole topic, with the family's notification choices (a notice in the new
 * thread by default, none in the old one).
 */
import { useState, type FormEvent } from 'react';
import type { Message } from '@chat/client';
import { t } from '../../i18n';
import { store, useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { moveMessages, type MoveRequest } from '../actions';
import { messagePermissions } from '../permissions';

/**
 * The family's default: only this message when it is the topic's last, the whole topic when it
 * is the first, else it and the ones after it (judged by the messages this tab has loaded).
 */
function defaultPropagate(message: Message): MoveRequest['propagate'] {
  let first = message.id;
  let last = message.id;
  const topic = message.subject.toLowerCase();
  for (const m of store.get().messages.values()) {
    if (m.type !== 'stream' || m.stream_id !== message.stream_id || m.subject.toLowerCase() !== topic) continue;
    first = Math.min(first, m.id);
    last = Math.max(last, m.id);
  }
  if (message.id === last && first !== last) return 'change_one';
  if (message.id === first) return 'change_all';
  return 'change_later';
}

export function MoveDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const reg = useReg();
  const may = messagePermissions(reg, message);
  const topicAllowed = may.editTopic;
  const channelAllowed = may.moveChannel;
  const [topic, setTopic] = useState(message.subject);
  const [streamId, setStreamId] = useState(message.stream_id!);
  const [propagate, setPropagate] = useState<MoveRequest['propagate']>(() => defaultPropagate(message));
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const [busy, setBusy] = useState(false);
  const channels = reg.subscriptions.filter((s) => !s.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const changed = topic.trim() !== message.subject || streamId !== message.stream_id;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!changed) return;
    setBusy(true);
    const ok = await moveMessages(message, { topic: topic.trim(), streamId, propagate, notifyOld, notifyNew });
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Dialog
      title={channelAllowed ? t('feed.move_title') : t('feed.edit_topic_title')}
      onClose={onClose}
      testId="move-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>{t('misc.cancel')}</button>
          <button type="submit" form="move-form" className="button primary" disabled={!changed || busy}>{t('feed.move_confirm')}</button>
        </>
      }
    >
      <form id="move-form" className="feed-form" onSubmit={submit}>
        <label className="feed-field">
          <span>{t('feed.move_topic')}</span>
          <input value={topic} onChange={(e) => setTopic(e.target.value)} disabled={!topicAllowed} maxLength={60} />
        </label>
        {channelAllowed && (
          <label className="feed-field">
            <span>{t('feed.move_channel')}</span>
            <select value={streamId} onChange={(e) => setStreamId(Number(e.target.value))}>
              {channels.map((c) => (
                <option key={c.stream_id} value={c.stream_id}>#{c.name}</option>
              ))}
            </select>
          </label>
        )}
        <label className="feed-field">
          <span>{t('feed.move_which')}</span>
          <select value={propagate} onChange={(e) => setPropagate(e.target.value as MoveRequest['propagate'])}>
            <option value="change_one">{t('feed.move_one')}</option>
            <option value="change_later">{t('feed.move_later')}</option>
            <option value="change_all">{t('feed.move_all')}</option>
          </select>
        </label>
        <label className="feed-check">
          <input type="checkbox" checked={notifyOld} onChange={(e) => setNotifyOld(e.target.checked)} />
          {t('feed.move_notify_old')}
        </label>
        <label className="feed-check">
          <input type="checkbox" checked={notifyNew} onChange={(e) => setNotifyNew(e.target.checked)} />
          {t('feed.move_notify_new')}
        </label>
      </form>
    </Dialog>
  );
}
