/** Who has read a message (GET /messages/{id}/read_receipts), by name. */
import { useEffect, useState } from 'react';
import type { Message } from '@chat/client';
import { api, errorText } from '../../api';
import { t } from '../../i18n';
import { useAppState } from '../../state/store';
import { Avatar } from '../../ui/Avatar';
import { Dialog } from '../../ui/Dialog';
import { UserName } from '../../ui/UserName';

export function ReceiptsDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const [ids, setIds] = useState<number[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const users = useAppState((s) => s.users);
  useEffect(() => {
    let live = true;
    api.getReadReceipts(message.id).then(
      (r) => live && setIds(r.user_ids),
      (err) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [message.id]);
  const sorted = (ids ?? []).slice().sort((a, b) => (users.get(a)?.full_name ?? '').localeCompare(users.get(b)?.full_name ?? ''));
  return (
    <Dialog title={t('feed.receipts_title')} onClose={onClose} testId="receipts-dialog">
      {error && <p role="alert">{t('misc.error', { error })}</p>}
      {!ids && !error && <p role="status">{t('feed.loading')}</p>}
      {ids && (
        <>
          <p>{ids.length ? t('feed.receipts_count', { count: ids.length }) : t('feed.receipts_none')}</p>
          <ul className="receipt-list">
            {sorted.map((id) => (
              <li key={id}>
                <Avatar userId={id} size={24} />
                <UserName userId={id} />
              </li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}
