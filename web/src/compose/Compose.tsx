/** The compose box: to a channel and topic, or to people; Enter sends, Shift+Enter is a new line. */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { t } from '../i18n';
import { sendMessage } from '../state/actions';
import { useReg } from '../state/store';

export type ComposeTarget = { type: 'stream'; streamId: number; topic: string } | { type: 'direct'; to: number[] };

export function Compose({ target }: { target: ComposeTarget | null }) {
  const reg = useReg();
  const [topic, setTopic] = useState(target?.type === 'stream' ? target.topic : '');
  const [content, setContent] = useState('');
  if (!target) return null;
  const channel = target.type === 'stream' ? reg.subscriptions.find((s) => s.stream_id === target.streamId) : undefined;
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    const text = content.trim();
    if (!text) return;
    if (target.type === 'stream') sendMessage({ type: 'stream', to: target.streamId, topic, content: text });
    else sendMessage({ type: 'direct', to: target.to, content: text });
    setContent('');
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) send(e);
  };
  return (
    <form className="compose" onSubmit={send} aria-label={t('compose.message')}>
      {target.type === 'stream' && (
        <div className="compose-recipient">
          <span className="compose-channel">#{channel?.name ?? target.streamId}</span>
          <label className="visually-hidden" htmlFor="compose-topic">{t('compose.topic')}</label>
          <input id="compose-topic" value={topic} onChange={(e) => setTopic(e.target.value)} placeholder={t('compose.topic')} />
        </div>
      )}
      <label className="visually-hidden" htmlFor="compose-content">{t('compose.message')}</label>
      <textarea id="compose-content" value={content} onChange={(e) => setContent(e.target.value)} onKeyDown={onKey} rows={3}
        placeholder={t('compose.placeholder', { to: target.type === 'stream' ? `#${channel?.name ?? ''}${topic ? ` > ${topic}` : ''}` : '' })} />
      <button type="submit">{t('compose.send')}</button>
    </form>
  );
}
