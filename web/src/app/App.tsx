/**
 * The frame: the header, the left sidebar, the current view (from the hash), the people
 * sidebar, and what floats above (user cards, the shortcuts' help, refusals). On a phone both
 * sidebars are drawers. Until the first /register answers there is only the connecting state.
 */
import { useEffect, useState } from 'react';
import { setLanguage, t } from '../i18n';
import { useAppState } from '../state/store';
import { useView } from './route';
import { Sidebar } from '../sidebar/Sidebar';
import { BuddyList } from '../people/BuddyList';
import { UserCardHost } from '../people/UserCard';
import { startPresence } from '../people/heartbeat';
import { startNotifications } from '../notifications/notifier';
import { installShortcuts } from '../shortcuts/run';
import { ShortcutsHost } from '../shortcuts/ShortcutsDialog';
import { showSidebarError, useSidebarError } from '../sidebar/errors';
import { useApplyTheme } from '../ui/theme';
import { useUserSetting } from '../ui/settings';
import { Header } from './Header';
import { ViewErrorBoundary } from './ErrorBoundary';
import { MainView } from './MainView';
import '../styles/nav.css';

const RIGHT_KEY = 'chat.right-sidebar';

function initialRight(): boolean {
  try {
    const saved = localStorage.getItem(RIGHT_KEY);
    if (saved !== null) return saved === '1';
  } catch {
    // No storage: the width decides.
  }
  return typeof window === 'undefined' || window.innerWidth > 1000;
}

export function App() {
  const status = useAppState((s) => s.status);
  const statusMessage = useAppState((s) => s.statusMessage);
  const ready = useAppState((s) => s.reg !== null);
  useApplyTheme();
  if (!ready) {
    return (
      <div className="app-loading" role="status" aria-live="polite">
        {status === 'fatal' ? t('app.fatal', { error: statusMessage ?? '' }) : t('app.connecting')}
      </div>
    );
  }
  return <Frame status={status} />;
}

function Frame({ status }: { status: string }) {
  const view = useView();
  const [leftOpen, setLeftOpen] = useState(false);
  const [rightOpen, setRightOpen] = useState(initialRight);
  const narrowScreen = useNarrow();
  const language = useUserSetting('default_language', 'en');
  useEffect(() => setLanguage(language), [language]);
  useEffect(() => {
    const stops = [startPresence(), startNotifications(), installShortcuts()];
    return () => stops.forEach((stop) => stop());
  }, []);
  // A drawer closes once the person has gone somewhere.
  useEffect(() => {
    setLeftOpen(false);
    if (narrowScreen) setRightOpen(false);
  }, [view]);
  const toggleRight = () => {
    const next = !rightOpen;
    setRightOpen(next);
    if (!narrowScreen) {
      try {
        localStorage.setItem(RIGHT_KEY, next ? '1' : '0');
      } catch {
        // The choice lasts for this page.
      }
    }
  };
  const drawerOpen = narrowScreen && (leftOpen || rightOpen);
  return (
    <div className={`app app-frame${leftOpen ? ' left-open' : ''}${rightOpen ? ' right-open' : ' right-closed'}`} onKeyDown={(e) => {
      if (e.key === 'Escape' && drawerOpen) {
        e.stopPropagation();
        setLeftOpen(false);
        setRightOpen(false);
      }
    }}>
      <a href="#main" className="skip-link">{t('nav.skip')}</a>
      {status === 'reconnecting' && (
        <div className="banner banner-warning" role="status" aria-live="polite" data-testid="reconnecting">
          {t('app.reconnecting')}
        </div>
      )}
      <Header view={view} leftOpen={leftOpen} onLeft={() => setLeftOpen(!leftOpen)} rightOpen={rightOpen} onRight={toggleRight} />
      <Sidebar view={view} id="left-sidebar" />
      <main className="main" id="main" tabIndex={-1}>
        <ErrorBar />
        <ViewErrorBoundary resetKey={location.hash}>
          <MainView view={view} />
        </ViewErrorBoundary>
      </main>
      {rightOpen && <BuddyList view={view} id="right-sidebar" />}
      {drawerOpen && <button type="button" className="drawer-backdrop" aria-label={t('nav.close_drawer')} onClick={() => { setLeftOpen(false); setRightOpen(false); }} />}
      <UserCardHost />
      <ShortcutsHost />
    </div>
  );
}

function ErrorBar() {
  const error = useSidebarError();
  if (!error) return null;
  return (
    <div className="error-bar" role="alert">
      <span>{t('misc.error', { error })}</span>
      <button type="button" className="icon-button small" aria-label={t('ui.close')} onClick={() => showSidebarError(null)}>×</button>
    </div>
  );
}

const PHONE = '(max-width: 700px)';

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof matchMedia === 'function' && matchMedia(PHONE).matches);
  useEffect(() => {
    const q = matchMedia(PHONE);
    const on = () => setNarrow(q.matches);
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return narrow;
}
