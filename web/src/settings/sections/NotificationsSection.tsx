/**
 * Notifications: the triggers table (which messages notify, and how), per-channel overrides,
 * following topics automatically, and the desktop, mobile and email details.
 */
import { t } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { SaveState, SettingsGroup, SettingsSection } from '../controls';
import { settingsOf, useUserSetting } from '../lib/hooks';
import { NOTIFICATION_COLUMNS, NOTIFICATION_ROWS, type NotificationColumn } from '../lib/values';
import { UserSelect, UserToggle } from '../UserControls';
import { ChannelNotifications } from './ChannelNotifications';

export const columnLabel = (c: NotificationColumn) => t(`settings.notif.col.${c}`);

export function NotificationsSection() {
  const reg = useReg();
  const settings = useAppState(settingsOf);
  const pushOff = reg.realm_push_notifications_enabled === false;
  const sounds = ['none', ...((settings.available_notification_sounds ?? reg.available_notification_sounds ?? []) as string[]).filter((s) => s !== 'none')];
  const contentAllowed = reg.realm_message_content_allowed_in_email_notifications !== false;
  return (
    <SettingsSection title={t('settings.nav.notifications')} testId="settings-notifications">
      <SettingsGroup title={t('settings.notif.triggers')} description={pushOff ? t('settings.notif.push_disabled') : undefined}>
        <div className="settings-table-wrap">
          <table className="settings-table" data-testid="notification-triggers">
            <thead>
              <tr>
                <th scope="col">{t('settings.notif.col.kind')}</th>
                {NOTIFICATION_COLUMNS.map((c) => <th key={c} scope="col" className="check">{columnLabel(c)}</th>)}
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_ROWS.map((row) => (
                <tr key={row.label}>
                  <th scope="row">{t(row.label)}</th>
                  {NOTIFICATION_COLUMNS.map((c) => {
                    const name = row.settings[c];
                    return (
                      <td key={c} className="check">
                        {name && <TriggerCell name={name} label={t('settings.notif.cell', { column: columnLabel(c), row: t(row.label) })} disabled={c === 'push' && pushOff} />}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </SettingsGroup>
      <ChannelNotifications />
      <SettingsGroup title={t('settings.notif.topics')}>
        <UserSelect name="automatically_follow_topics_policy" label="settings.notif.automatically_follow_topics_policy" />
        <UserSelect name="automatically_unmute_topics_in_muted_streams_policy" label="settings.notif.automatically_unmute_topics_in_muted_streams_policy" />
        <UserToggle name="automatically_follow_topics_where_mentioned" label="settings.notif.automatically_follow_topics_where_mentioned" />
      </SettingsGroup>
      <SettingsGroup title={t('settings.notif.desktop')}>
        <UserToggle name="pm_content_in_desktop_notifications" label="settings.notif.pm_content_in_desktop_notifications" />
        <UserSelect
          name="notification_sound"
          label="settings.notif.notification_sound"
          choices={sounds.map((s) => ({ value: s, label: s === 'none' ? t('settings.choice.none') : s.charAt(0).toUpperCase() + s.slice(1) }))}
        />
        <UserSelect name="desktop_icon_count_display" label="settings.notif.desktop_icon_count_display" />
      </SettingsGroup>
      <SettingsGroup title={t('settings.notif.mobile')}>
        <UserToggle name="enable_online_push_notifications" label="settings.notif.enable_online_push_notifications" disabled={pushOff} />
      </SettingsGroup>
      <SettingsGroup title={t('settings.notif.email')}>
        <UserSelect name="email_notifications_batching_period_seconds" label="settings.notif.email_notifications_batching_period_seconds" />
        <UserSelect name="realm_name_in_email_notifications_policy" label="settings.notif.realm_name_in_email_notifications_policy" />
        <UserToggle
          name="message_content_in_email_notifications"
          label="settings.notif.message_content_in_email_notifications"
          disabled={!contentAllowed}
          hint={contentAllowed ? undefined : t('settings.notif.content_disabled')}
        />
        <UserToggle name="enable_digest_emails" label="settings.notif.enable_digest_emails" />
        <UserToggle name="enable_login_emails" label="settings.notif.enable_login_emails" />
        <UserToggle name="enable_marketing_emails" label="settings.notif.enable_marketing_emails" />
      </SettingsGroup>
    </SettingsSection>
  );
}

/** One checkbox of the triggers table, labelled by its row and column. */
function TriggerCell({ name, label, disabled }: { name: string; label: string; disabled?: boolean }) {
  const s = useUserSetting(name);
  if (!s.known) return null;
  return (
    <span className="check-cell">
      <input type="checkbox" name={name} aria-label={label} checked={s.value === true} disabled={disabled} onChange={(e) => s.set(e.target.checked)} aria-describedby={`${name}-state`} />
      <SaveState id={`${name}-state`} status={s.status} />
    </span>
  );
}
