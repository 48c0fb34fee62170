/** The outcome of a useAction request, in a live region beside its control. */
import { t } from '../../i18n';
import type { ActionState } from './useAction';

export function ActionStatus({ state }: { state: ActionState }) {
  return (
    <span className="action-status" aria-live="polite">
      {state.busy && <span className="save-saving">{t('admin.working')}</span>}
      {state.ok && <span className="save-saved">{state.ok}</span>}
      {state.error && (
        <span className="settings-error" role="alert">
          {t('admin.refused', { error: state.error })}
        </span>
      )}
    </span>
  );
}
