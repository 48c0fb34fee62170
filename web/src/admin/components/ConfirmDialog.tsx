/**
 * Asks before something that cannot simply be undone (deactivating, archiving, deleting): the
 * shared modal dialog with the question, an optional detail, and the action named on its
 * button. While the request runs the buttons wait; a refusal is shown in the dialog.
 */
import { useState, type ReactNode } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { Dialog } from '../../ui/Dialog';

export interface ConfirmDialogProps {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** The action; the dialog closes when it resolves, and shows the error when it throws. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  danger?: boolean;
}

export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose, danger = true }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    setBusy(true);
    setError(null);
    onConfirm().then(
      () => onClose(),
      (err: unknown) => {
        setBusy(false);
        setError(errorText(err));
      },
    );
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      className="admin-dialog"
      testId="confirm-dialog"
      footer={
        <>
          <button type="button" onClick={onClose} disabled={busy}>{t('misc.cancel')}</button>
          <button type="button" className={danger ? 'danger' : 'primary'} onClick={confirm} disabled={busy}>
            {busy ? t('admin.working') : confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {error && <p className="settings-error" role="alert">{t('admin.refused', { error })}</p>}
    </Dialog>
  );
}
