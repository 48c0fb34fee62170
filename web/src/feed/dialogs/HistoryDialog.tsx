/**
 * A message's edit history, newest first: each version with who made it and when, content
 * changes shown as the server's word diff (insertions and deletions marked) and moves as
 * before → after.
 */
import { useEffect, useState } from 'react';
import type { Message } from '@chat/client';
import { api, errorText } from '../../api';
import { t } from '../../i18n';
import { useAppState } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { useTimeFormat } from '../../ui/time';
import { channelName } from '../actions';

interface Snapshot {
  user_id?: number | null;
  timestamp: number;
  topic?: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  rendered_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
}

export function HistoryDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const [history, setHistory] = useState<Snapshot[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const users = useAppState((s) => s.users);
  const time = useTimeFormat();
  useEffect(() => {
    let live = true;
    api.getEditHistory(message.id).then(
      (r) => live && setHistory((r.message_history as unknown as Snapshot[]).slice().reverse()),
      (err) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [message.id]);
  const name = (id: number | null | undefined) => (id ? users.get(id)?.full_name ?? t('feed.unknown_user') : t('feed.unknown_user'));
  return (
    <Dialog title={t('feed.history_title')} onClose={onClose} className="history-dialog" testId="history-dialog">
      {error && <p role="alert">{t('misc.error', { error })}</p>}
      {!history && !error && <p role="status">{t('feed.loading')}</p>}
      {history && (
        <ol className="edit-history">
          {history.map((s, i) => {
            const original = i === history.length - 1;
            return (
              <li key={`${s.timestamp}-${i}`} className="edit-version">
                <div className="edit-meta">
                  <strong>{original ? t('feed.history_original', { name: name(s.user_id) }) : t('feed.history_edited', { name: name(s.user_id) })}</strong>{' '}
                  <time dateTime={new Date(s.timestamp * 1000).toISOString()}>{time.full(s.timestamp)}</time>
                </div>
                {s.prev_stream !== undefined && s.stream !== undefined && (
                  <p className="edit-move">{t('feed.history_channel', { from: channelName(s.prev_stream), to: channelName(s.stream) })}</p>
                )}
                {s.prev_topic !== undefined && <p className="edit-move">{t('feed.history_topic', { from: s.prev_topic, to: s.topic ?? '' })}</p>}
                {(original || s.content_html_diff !== undefined) && (
                  // The server's rendering of the message (or its diff): the same trusted HTML the feed shows.
                  <div className="message-content rendered_markdown" dangerouslySetInnerHTML={{ __html: s.content_html_diff ?? s.rendered_content ?? '' }} />
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Dialog>
  );
}
