/**
 * Keeps a failure inside one view: the rest of the app (sidebar, header, compose) stays, and
 * the view says what went wrong with a way to reload. Going to another view clears it.
 */
import { Component, type ReactNode } from 'react';
import { t } from '../i18n';
import { reloadForNewVersion } from './lazy';

interface Props {
  /** Changes when the person goes elsewhere: the boundary tries again. */
  resetKey: string;
  children: ReactNode;
}

export class ViewErrorBoundary extends Component<Props, { error: Error | null; key: string }> {
  override state = { error: null as Error | null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: Error | null; key: string }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: Error): void {
    // A chunk of an older build (the app was rebuilt since this tab opened): load the new one.
    if (/dynamically imported module|Importing a module script failed/i.test(error.message) && reloadForNewVersion()) return;
    console.error('A view failed to render.', error);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="feed-status view-error" role="alert">
        <p>{t('app.view_failed', { error: this.state.error.message })}</p>
        <button type="button" className="button" onClick={() => location.reload()}>{t('app.reload')}</button>
      </div>
    );
  }
}
