/**
 * The offer to turn on desktop notifications, in the sidebar: browsers only allow asking after
 * a click, so the question waits for one. Dismissing it is remembered in this browser.
 */
import { useState } from 'react';
import { t } from '../i18n';
import { useUserSetting } from '../ui/settings';
import { notificationsSupported } from './notifier';

const DISMISSED = 'chat.notifications-banner-dismissed';

function dismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED) === '1';
  } catch {
    return false;
  }
}

export function NotificationsBanner() {
  const wanted = useUserSetting('enable_desktop_notifications', true);
  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : 'denied'));
  const [hidden, setHidden] = useState(dismissed);
  if (!wanted || hidden || permission !== 'default') return null;
  const enable = async () => {
    setPermission(await Notification.requestPermission());
  };
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED, '1');
    } catch {
      // Private mode: hidden for this page only.
    }
    setHidden(true);
  };
  return (
    <div className="notify-banner" role="region" aria-label={t('notify.banner_label')}>
      <p>{t('notify.banner_text')}</p>
      <div className="notify-banner-actions">
        <button type="button" className="button primary" onClick={() => void enable()}>{t('notify.enable')}</button>
        <button type="button" className="button" onClick={dismiss}>{t('notify.not_now')}</button>
      </div>
    </div>
  );
}
