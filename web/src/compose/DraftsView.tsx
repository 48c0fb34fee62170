/**
 * The drafts view (`#drafts`): every saved draft, newest first, with where it was going and
 * when it was last edited; Restore opens it in the compose box on its conversation, Delete
 * removes it. Server drafts follow `drafts` events; this browser's follow localStorage.
 */
import { useState } from 'react';
import { errorText } from '../api';
import { navigate } from '../app/route';
import { t } from '../i18n';
import { channelHash, dmHash } from '../narrow/hash';
import { useAppState } from '../state/store';
import { Dialog } from '../ui/Dialog';
import { relativeTime, useNow, useTimeFormat } from '../ui/time';
import { Compose } from './Compose';
import { useTargetLabel } from './ComposeBar';
import { targetFromDraft } from './draftSaver';
import { deleteDraft, syncEnabled, useDrafts, type StoredDraft } from './drafts';
import { openCompose } from './state';
import { isComplete, type ComposeTarget } from './types';
import '../styles/compose.css';

export function conversationHash(target: ComposeTarget, subs: Array<{ stream_id: number; name: string }>): string | null {
  if (!isComplete(target)) return null;
  if (target.type === 'direct') return dmHash(target.to, 'dm');
  const sub = subs.find((s) => s.stream_id === target.streamId);
  return sub ? channelHash(sub.stream_id, sub.name, target.topic) : null;
}

function DraftItem({ draft, onError }: { draft: StoredDraft; onError: (msg: string) => void }) {
  const target = targetFromDraft(draft);
  const label = useTargetLabel(target);
  const subs = useAppState((s) => s.reg!.subscriptions);
  const fmt = useTimeFormat();
  const now = useNow();
  const restore = () => {
    const hash = target ? conversationHash(target, subs) : null;
    if (hash) navigate(hash);
    // An unaddressed draft opens as a new topic with no channel chosen yet.
    openCompose(target ?? { type: 'stream', streamId: 0, topic: draft.topic }, { content: draft.content, draft });
  };
  return (
    <li className="compose-list-item" data-testid="draft-item">
      <header>
        <span className="where">{label || t('drafts.no_recipient')}</span>
        <time dateTime={new Date(draft.timestamp * 1000).toISOString()} title={fmt.full(draft.timestamp)}>
          {relativeTime(draft.timestamp, now)}
        </time>
      </header>
      <div className="body">{draft.content}</div>
      <div className="actions">
        <button type="button" className="button" onClick={restore} data-testid="draft-restore">
          {t('drafts.restore')}
        </button>
        <button type="button" className="button danger" onClick={() => deleteDraft(draft).catch((err) => onError(errorText(err)))} aria-label={t('drafts.delete_one', { where: label || t('drafts.no_recipient') })} data-testid="draft-delete">
          {t('drafts.delete')}
        </button>
      </div>
    </li>
  );
}

export function DraftsView() {
  const drafts = useDrafts();
  const [confirmAll, setConfirmAll] = useState(false);
  const [error, setError] = useState<string>();
  useAppState((s) => s.reg?.user_settings?.enable_drafts_synchronization);
  return (
    <section className="narrow" aria-labelledby="drafts-title">
      <div className="compose-list-view">
        <h1 id="drafts-title">{t('drafts.title')}</h1>
        <p className="compose-list-empty">{syncEnabled() ? t('drafts.synced') : t('drafts.local_only')}</p>
        {error && <p role="alert" className="compose-error">{t('misc.error', { error })}</p>}
        {drafts.length === 0 ? (
          <p className="compose-list-empty">{t('drafts.empty')}</p>
        ) : (
          <>
            <ul className="compose-list" aria-label={t('drafts.title')}>
              {drafts.map((d) => (
                <DraftItem key={`${d.local ? 'l' : 's'}${d.id}`} draft={d} onError={setError} />
              ))}
            </ul>
            <p>
              <button type="button" className="button danger" onClick={() => setConfirmAll(true)}>
                {t('drafts.delete_all')}
              </button>
            </p>
          </>
        )}
        {confirmAll && (
          <Dialog
            title={t('drafts.delete_all')}
            onClose={() => setConfirmAll(false)}
            footer={
              <>
                <button type="button" className="button" onClick={() => setConfirmAll(false)}>
                  {t('misc.cancel')}
                </button>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => {
                    setConfirmAll(false);
                    Promise.all(drafts.map(deleteDraft)).catch((err) => setError(errorText(err)));
                  }}
                >
                  {t('drafts.delete')}
                </button>
              </>
            }
          >
            <p>{t('drafts.delete_all_confirm', { count: drafts.length })}</p>
          </Dialog>
        )}
      </div>
      <Compose target={null} />
    </section>
  );
}
