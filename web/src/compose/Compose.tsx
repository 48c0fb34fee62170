/**
 * The compose box. Closed, it offers to write to the conversation in view, a new topic or a
 * new direct message; open, it has the recipient row (channel and topic, or people), the
 * Markdown editor, and Send with its send-later menu. Escape closes it and keeps the text as
 * a draft; files dropped on the box or on the message list above it are uploaded into it.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorText } from '../api';
import { t } from '../i18n';
import { channelHash, dmHash } from '../narrow/hash';
import { currentView } from '../app/route';
import { sendMessage } from '../state/actions';
import { pendingFor } from '../state/selectors';
import { store, useReg } from '../state/store';
import { useTimeFormat } from '../ui/time';
import { ComposeBar, NoticeLine, useTargetLabel, type ComposeNotice } from './ComposeBar';
import { MarkdownEditor } from './MarkdownEditor';
import { ChannelPicker, PeoplePicker, TopicInput } from './Recipient';
import { createScheduled, updateScheduled } from './scheduled';
import { SendControls } from './SendControls';
import { clearCompose, closeCompose, getCompose, noteChange, openCompose, setCompose, useCompose } from './state';
import { noteTyping, typingNotifier } from './typing';
import { sameConversation, type ComposeTarget } from './types';
import { useUploads } from './Uploads';
import '../styles/compose.css';

export type { ComposeTarget } from './types';

/** Whether the view on screen shows the message being sent (a channel's view shows its topics' messages). */
function shownInView(localId: string): boolean {
  const view = currentView();
  if (view.kind === 'feed') return true;
  return view.kind === 'narrow' && pendingFor(store.get(), view.terms).some((o) => o.localId === localId);
}

/** Whether a drop lands where the compose box takes files: the box itself or the message list. */
function dropZone(el: EventTarget | null): boolean {
  return el instanceof Element && !!el.closest('.compose, .message-list, .compose-closed');
}

export function Compose({ target: viewTarget }: { target: ComposeTarget | null }) {
  const reg = useReg();
  const compose = useCompose();
  const fmt = useTimeFormat();
  const [notice, setNotice] = useState<ComposeNotice | null>(null);
  const [dragging, setDragging] = useState(false);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const channelRef = useRef<HTMLInputElement>(null);
  const topicRef = useRef<HTMLInputElement>(null);
  const peopleRef = useRef<HTMLInputElement>(null);
  const target = compose.target;
  const label = useTargetLabel(target);

  const uploads = useUploads({
    get: () => {
      const v = getCompose().content;
      const el = textareaRef.current;
      return { value: v, start: el?.selectionStart ?? v.length, end: el?.selectionEnd ?? v.length };
    },
    set: (v, caret) => {
      setCompose({ content: v });
      noteChange();
      if (caret !== undefined) requestAnimationFrame(() => textareaRef.current?.setSelectionRange(caret, caret));
    },
  });

  // A new view: an empty open box made for another conversation closes (the family's way);
  // one with text keeps it.
  useEffect(() => {
    const s = getCompose();
    if (s.open && !s.content.trim() && !s.editingScheduled && !sameConversation(s.target, viewTarget)) closeCompose();
  }, []);

  // Focus goes where the person has to write next: the channel, the topic, the people, the text.
  useEffect(() => {
    if (!compose.open || !compose.focusTick) return;
    requestAnimationFrame(() => {
      const s = getCompose();
      const to = s.target;
      const el = to?.type === 'stream' && !to.streamId ? channelRef.current : to?.type === 'stream' && !to.topic && !s.content ? topicRef.current : to?.type === 'direct' && !to.to.length ? peopleRef.current : textareaRef.current;
      el?.focus();
      if (el === textareaRef.current && el) el.setSelectionRange(el.value.length, el.value.length);
    });
  }, [compose.focusTick, compose.open]);

  // Files dropped on the message list go into the box (opened on the view's conversation).
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files') || !dropZone(e.target)) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!e.relatedTarget || !dropZone(e.relatedTarget)) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      setDragging(false);
      if (!e.dataTransfer?.files.length || !dropZone(e.target) || e.defaultPrevented) return;
      e.preventDefault();
      if (!getCompose().open) openCompose(viewTarget);
      uploads.add([...e.dataTransfer.files]);
    };
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
    };
  });

  if (!compose.open) return <ComposeBar target={viewTarget} notice={notice} onDismiss={() => setNotice(null)} />;

  const setTarget = (next: ComposeTarget) => {
    setCompose({ target: next });
    noteChange();
  };
  /** Channel message or direct message: the text stays, the recipient is asked for next. */
  const switchKind = (kind: 'stream' | 'direct') => {
    const streamId = viewTarget?.type === 'stream' ? viewTarget.streamId : 0;
    setTarget(kind === 'stream' ? { type: 'stream', streamId, topic: '' } : { type: 'direct', to: viewTarget?.type === 'direct' ? viewTarget.to : [] });
    requestAnimationFrame(() => (kind === 'direct' ? peopleRef.current : streamId ? topicRef.current : channelRef.current)?.focus());
  };
  const setContent = (content: string) => {
    setCompose({ content });
    noteChange();
    noteTyping(getCompose().target, content);
  };

  const topicRequired = reg.realm_mandatory_topics === true || reg.realm_topics_policy === 'disable_empty_topic';
  /** Why the message cannot go as it stands, or null. */
  const problem = (): string | null => {
    if (!target) return t('compose.error.no_recipient');
    if (target.type === 'stream' && !target.streamId) return t('compose.error.no_channel');
    if (target.type === 'stream' && topicRequired && !target.topic.trim()) return t('compose.error.no_topic');
    if (target.type === 'direct' && !target.to.length) return t('compose.error.no_people');
    if (!compose.content.trim()) return t('compose.error.empty');
    return null;
  };

  const whereLink = (to: ComposeTarget): ComposeNotice['link'] => {
    if (to.type === 'stream') {
      const sub = reg.subscriptions.find((s) => s.stream_id === to.streamId);
      return sub ? { href: channelHash(to.streamId, sub.name, to.topic), label: t('compose.view_conversation') } : undefined;
    }
    return { href: dmHash(to.to, 'dm'), label: t('compose.view_conversation') };
  };

  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (compose.editingScheduled) return schedule(new Date(compose.editingScheduled.at * 1000));
    const why = problem();
    if (why) return setNotice({ text: why, error: true });
    if (uploads.busy) return;
    const content = compose.content.trim();
    const to = target!;
    const localId = to.type === 'stream' ? sendMessage({ type: 'stream', to: to.streamId, topic: to.topic.trim(), content }) : sendMessage({ type: 'direct', to: to.to, content });
    clearCompose();
    // A message to a conversation not in view would vanish from sight: say where it went.
    setNotice(sameConversation(to, viewTarget) || shownInView(localId) ? null : { text: t('compose.sent_to', { where: label }), link: whereLink(to) });
    textareaRef.current?.focus();
  };

  const schedule = (at: Date) => {
    const why = problem();
    if (why) return setNotice({ text: why, error: true });
    const to = target!;
    const content = compose.content.trim();
    const editing = compose.editingScheduled;
    const request = editing ? updateScheduled(editing.id, to, content, at) : createScheduled(to, content, at);
    setNotice({ text: t('compose.schedule.saving') });
    request.then(
      () => {
        clearCompose();
        closeCompose();
        setNotice({ text: t('compose.schedule.done', { time: fmt.full(at.getTime() / 1000) }), link: { href: '#scheduled', label: t('compose.schedule.view') } });
      },
      (err) => setNotice({ text: t('compose.schedule.failed', { error: errorText(err) }), error: true }),
    );
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      e.stopPropagation();
      closeCompose();
    }
  };

  const isStream = target?.type !== 'direct';
  return (
    <form className={`compose${dragging ? ' compose-dragging' : ''}`} onSubmit={send} onKeyDown={onKeyDown} aria-label={t('compose.region')} data-testid="compose">
      {compose.editingScheduled && (
        <div className="compose-editing-scheduled" role="status">
          {t('compose.schedule.editing', { time: fmt.full(compose.editingScheduled.at) })}
          <button type="button" className="button" onClick={() => (clearCompose(), closeCompose())}>
            {t('compose.schedule.cancel_edit')}
          </button>
        </div>
      )}
      <div className="compose-recipient">
        <div className="compose-kind" role="group" aria-label={t('compose.kind')}>
          <button type="button" aria-pressed={isStream} className="compose-kind-button" onClick={() => !isStream && switchKind('stream')} title={t('compose.kind_channel')}>
            <span aria-hidden="true">#</span>
            <span className="visually-hidden">{t('compose.kind_channel')}</span>
          </button>
          <button type="button" aria-pressed={!isStream} className="compose-kind-button" onClick={() => isStream && switchKind('direct')} title={t('compose.kind_dm')}>
            <span aria-hidden="true">@</span>
            <span className="visually-hidden">{t('compose.kind_dm')}</span>
          </button>
        </div>
        {target?.type === 'direct' ? (
          <PeoplePicker to={target.to} onChange={(to) => setTarget({ type: 'direct', to })} onDone={() => textareaRef.current?.focus()} inputRef={peopleRef} />
        ) : (
          <>
            <ChannelPicker streamId={target?.streamId ?? 0} onChange={(id) => (setTarget({ type: 'stream', streamId: id, topic: target?.type === 'stream' ? target.topic : '' }), topicRef.current?.focus())} inputRef={channelRef} />
            <span className="compose-arrow" aria-hidden="true">›</span>
            <TopicInput streamId={target?.streamId ?? 0} topic={target?.type === 'stream' ? target.topic : ''} onChange={(topic) => setTarget({ type: 'stream', streamId: target?.type === 'stream' ? target.streamId : 0, topic })} onDone={() => textareaRef.current?.focus()} inputRef={topicRef} />
          </>
        )}
        <button
          type="button"
          className="icon-button compose-close"
          onClick={() => closeCompose()}
          aria-label={t('compose.close')}
          title={t('compose.close')}
          data-testid="compose-close"
        >
          ×
        </button>
      </div>
      <MarkdownEditor
        value={compose.content}
        onChange={setContent}
        onSubmit={() => send()}
        onEscape={() => closeCompose()}
        onBlur={() => typingNotifier.stop()}
        target={target}
        label={t('compose.message')}
        placeholder={label ? t('compose.placeholder', { to: label }) : t('compose.message')}
        id="compose-textarea"
        uploads={uploads}
        textareaRef={textareaRef}
        testId="compose-editor"
      />
      <NoticeLine notice={notice} onDismiss={() => setNotice(null)} />
      <SendControls onSend={() => send()} onSchedule={schedule} disabled={uploads.busy} busyReason={uploads.busy ? t('compose.upload.wait') : undefined} editingScheduledAt={compose.editingScheduled?.at} />
    </form>
  );
}
