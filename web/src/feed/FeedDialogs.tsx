/**
 * The feed's dialogs, one at a time, for the message they were opened on: the emoji picker
 * (loaded on first use), moving, deleting (confirmed), edit history, read receipts; and the
 * full-size image view. A dialog whose message is deleted meanwhile closes.
 */
import { Suspense, useState } from 'react';
import { lazyScreen } from '../app/lazy';
import { t } from '../i18n';
import { useAppState } from '../state/store';
import { Dialog } from '../ui/Dialog';
import { deleteMessage, toggleReaction } from './actions';
import { HistoryDialog } from './dialogs/HistoryDialog';
import { MoveDialog } from './dialogs/MoveDialog';
import { ReceiptsDialog } from './dialogs/ReceiptsDialog';
import { closeDialog, setFeedView, useFeedView } from './view-state';

const EmojiPicker = lazyScreen(() => import('../emoji/EmojiPicker'));

export function FeedDialogs() {
  const dialog = useFeedView((s) => s.dialog);
  const lightbox = useFeedView((s) => s.lightbox);
  const message = useAppState((s) => (dialog ? s.messages.get(dialog.messageId) : undefined));
  const selfId = useAppState((s) => s.reg?.user_id);
  return (
    <>
      {dialog && message && dialog.kind === 'emoji' && (
        <Suspense fallback={null}>
          <EmojiPicker
            title={t('feed.add_reaction')}
            anchor={dialog.anchor}
            chosen={new Set(message.reactions.filter((r) => r.user_id === selfId).map((r) => `${r.reaction_type}:${r.emoji_code}`))}
            onPick={(e) => {
              closeDialog();
              void toggleReaction(message, e);
            }}
            onClose={closeDialog}
          />
        </Suspense>
      )}
      {dialog && message && dialog.kind === 'move' && <MoveDialog message={message} onClose={closeDialog} />}
      {dialog && message && dialog.kind === 'delete' && <DeleteDialog onConfirm={() => deleteMessage(message)} />}
      {dialog && message && dialog.kind === 'history' && <HistoryDialog message={message} onClose={closeDialog} />}
      {dialog && message && dialog.kind === 'receipts' && <ReceiptsDialog message={message} onClose={closeDialog} />}
      {lightbox && (
        <Dialog title={lightbox.alt || t('feed.image')} onClose={() => setFeedView({ lightbox: null })} className="lightbox" testId="lightbox"
          footer={<a className="button" href={lightbox.href} target="_blank" rel="noopener noreferrer">{t('feed.open_original')}</a>}>
          <img className="lightbox-image" src={lightbox.src} alt={lightbox.alt} />
        </Dialog>
      )}
    </>
  );
}

function DeleteDialog({ onConfirm }: { onConfirm: () => Promise<boolean> }) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const ok = await onConfirm();
    setBusy(false);
    if (ok) closeDialog();
  };
  return (
    <Dialog title={t('feed.delete_title')} onClose={closeDialog} testId="delete-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={closeDialog}>{t('misc.cancel')}</button>
          <button type="button" className="button danger" onClick={() => void confirm()} disabled={busy}>{t('feed.delete_confirm')}</button>
        </>
      }>
      <p>{t('feed.delete_body')}</p>
    </Dialog>
  );
}
