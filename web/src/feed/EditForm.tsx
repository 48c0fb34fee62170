/**
 * Editing a message's content in place: the raw Markdown fetched from the server, saved by the
 * keys that send in compose (Enter, or Ctrl+Enter, by the person's enter_sends), Escape cancels, and the time left to edit
 * counts down as in the family's app. The new rendering arrives with the update_message event.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Message, RegisterState } from '@chat/client';
import { api, errorText } from '../api';
import { t } from '../i18n';
import { useUserSetting } from '../ui/settings';
import { saveContent } from './actions';
import { editTimerParts, messagePermissions } from './permissions';
import { setFeedView } from './view-state';

function useSecondsLeft(reg: RegisterState, message: Message): number {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(timer);
  }, []);
  return messagePermissions(reg, message, now).editSeconds;
}

export function EditForm({ message, reg }: { message: Message; reg: RegisterState }) {
  const [raw, setRaw] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const left = useSecondsLeft(reg, message);
  const enterSends = useUserSetting('enter_sends', false);
  const close = () => {
    setFeedView({ editingId: null });
    document.querySelector<HTMLElement>(`[data-message-id="${message.id}"]`)?.focus();
  };
  useEffect(() => {
    let live = true;
    api.getRawContent(message.id).then(
      (r) => {
        if (!live) return;
        setRaw(r.raw_content);
        requestAnimationFrame(() => {
          area.current?.focus();
          area.current?.setSelectionRange(r.raw_content.length, r.raw_content.length);
        });
      },
      (err) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [message.id]);
  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (raw === null || busy) return;
    setBusy(true);
    const ok = await saveContent(message, raw);
    setBusy(false);
    if (ok) close();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing && (enterSends ? !e.shiftKey && !e.ctrlKey && !e.metaKey : e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void save();
    }
  };
  const expired = left <= 0;
  const timer = Number.isFinite(left) && !expired ? editTimerParts(left) : null;
  return (
    <form className="message-edit" onSubmit={save} aria-label={t('feed.edit_message')}>
      {error && <p role="alert">{t('misc.error', { error })}</p>}
      <textarea ref={area} aria-label={t('feed.edit_message')} value={raw ?? ''} disabled={raw === null} onChange={(e) => setRaw(e.target.value)} onKeyDown={onKey}
        rows={Math.min(12, Math.max(2, (raw ?? '').split('\n').length + 1))} />
      <div className="message-edit-bar">
        <button type="submit" className="button primary" disabled={raw === null || busy || expired}>{t('misc.save')}</button>
        <button type="button" className="button" onClick={close}>{t('misc.cancel')}</button>
        <span className="edit-timer" aria-live="off">
          {expired ? t('feed.edit_expired') : timer ? ('minutes' in timer ? t('feed.edit_minutes', { minutes: timer.minutes }) : t('feed.edit_seconds', { seconds: timer.seconds })) : ''}
        </span>
      </div>
    </form>
  );
}
