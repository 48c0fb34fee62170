/**
 * The state of a save in words beside its control: "Saving…", "Saved", or the server's reason
 * for refusing. A live region, so screen readers hear the outcome; controls point at it with
 * aria-describedby (its id).
 */
import { t } from '../../i18n';
import type { SaveStatus } from './useSave';

export function saveStateText(status: SaveStatus): string {
  switch (status.kind) {
    case 'saving':
      return t('settings.saving');
    case 'saved':
      return t('settings.saved');
    case 'error':
      return t('settings.not_saved', { error: status.message });
    case 'unconfirmed':
      return t('settings.unconfirmed');
    default:
      return '';
  }
}

export function SaveState({ status, id }: { status: SaveStatus; id?: string }) {
  const bad = status.kind === 'error' || status.kind === 'unconfirmed';
  return (
    <span id={id} className={`save-state save-${status.kind}`} role={bad ? 'alert' : 'status'} aria-live={bad ? 'assertive' : 'polite'} data-testid="save-state">
      {saveStateText(status)}
    </span>
  );
}
