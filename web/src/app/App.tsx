/**
 * The frame: the connection banner, the left sidebar, the current view (from the hash) and
 * the compose box. Until the first /register answers there is only the connecting state.
 */
import { t } from '../i18n';
import { useAppState } from '../state/store';
import { useView } from './route';
import { Sidebar } from '../sidebar/Sidebar';
import { MainView } from './MainView';

export function App() {
  const status = useAppState((s) => s.status);
  const statusMessage = useAppState((s) => s.statusMessage);
  const ready = useAppState((s) => s.reg !== null);
  const view = useView();
  if (!ready) {
    return (
      <div className="app-loading" role="status" aria-live="polite">
        {status === 'fatal' ? t('app.fatal', { error: statusMessage ?? '' }) : t('app.connecting')}
      </div>
    );
  }
  return (
    <div className="app">
      {status === 'reconnecting' && (
        <div className="banner banner-warning" role="status" aria-live="polite" data-testid="reconnecting">
          {t('app.reconnecting')}
        </div>
      )}
      <Sidebar view={view} />
      <main className="main" id="main">
        <MainView view={view} />
      </main>
    </div>
  );
}
