/**
 * Per-channel notification overrides: each subscribed channel's own value, or the general
 * setting where it has none; a change is POST /users/me/subscriptions/properties and shows
 * once the subscription event arrives.
 */
import type { Subscription } from '@chat/client';
import { t } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { SaveState, SettingsGroup, useSave } from '../controls';
import { setChannelProperties, setChannelProperty } from '../lib/calls';
import { settingsOf } from '../lib/hooks';
import { CHANNEL_OVERRIDES, effectiveChannelSetting } from '../lib/values';
import { columnLabel } from './NotificationsSection';

export function ChannelNotifications() {
  const reg = useReg();
  const subs = reg.subscriptions.filter((s) => !s.is_archived).slice().sort((a, b) => a.name.localeCompare(b.name));
  return (
    <SettingsGroup title={t('settings.notif.channels')} description={t('settings.notif.channels_about')}>
      {subs.length === 0 ? (
        <p className="settings-description">{t('settings.notif.no_channels')}</p>
      ) : (
        <div className="settings-table-wrap">
          <table className="settings-table" data-testid="channel-notifications">
            <thead>
              <tr>
                <th scope="col">{t('settings.notif.channel_col')}</th>
                {CHANNEL_OVERRIDES.map((o) => <th key={o.property} scope="col" className="check">{columnLabel(o.column)}</th>)}
                <th scope="col"><span className="visually-hidden">{t('settings.notif.reset')}</span></th>
              </tr>
            </thead>
            <tbody>
              {subs.map((sub) => <ChannelRow key={sub.stream_id} sub={sub} />)}
            </tbody>
          </table>
        </div>
      )}
    </SettingsGroup>
  );
}

function ChannelRow({ sub }: { sub: Subscription }) {
  const settings = useAppState(settingsOf);
  const pushOff = useReg().realm_push_notifications_enabled === false;
  const own = CHANNEL_OVERRIDES.map((o) => sub[o.property] as boolean | null | undefined);
  const customised = own.some((v, i) => v !== null && v !== undefined && v !== (settings[CHANNEL_OVERRIDES[i]!.general] === true));
  const resetState = useSave(JSON.stringify(own));
  const reset = () => {
    // Each property set to the general value, which is what the channel shows without its own.
    const data = CHANNEL_OVERRIDES.map((o) => ({ stream_id: sub.stream_id, property: o.property, value: settings[o.general] === true }));
    resetState.save(() => setChannelProperties(data), undefined, (now) => (JSON.parse(now) as unknown[]).every((v, i) => v === data[i]!.value));
  };
  return (
    <tr className={sub.is_muted ? 'muted' : undefined}>
      <th scope="row">#{sub.name}</th>
      {CHANNEL_OVERRIDES.map((o) => (
        <td key={o.property} className="check">
          <ChannelCell sub={sub} property={o.property} general={settings[o.general]} label={t('settings.notif.channel_cell', { column: columnLabel(o.column), channel: sub.name })} disabled={o.column === 'push' && pushOff} />
        </td>
      ))}
      <td>
        {customised && (
          <button type="button" onClick={reset} aria-label={t('settings.notif.reset_label', { channel: sub.name })} aria-describedby={`reset-${sub.stream_id}`}>{t('settings.notif.reset')}</button>
        )}
        <SaveState id={`reset-${sub.stream_id}`} status={resetState.status} />
      </td>
    </tr>
  );
}

function ChannelCell({ sub, property, general, label, disabled }: { sub: Subscription; property: string; general: unknown; label: string; disabled?: boolean }) {
  const own = sub[property] as boolean | null | undefined;
  const save = useSave<boolean | null | undefined>(own);
  const id = `sub-${sub.stream_id}-${property}`;
  return (
    <span className="check-cell">
      <input
        type="checkbox"
        aria-label={label}
        checked={effectiveChannelSetting(save.value, general)}
        disabled={disabled}
        aria-describedby={`${id}-state`}
        onChange={(e) => {
          const value = e.target.checked;
          save.save(() => setChannelProperty(sub.stream_id, property, value), value);
        }}
      />
      <SaveState id={`${id}-state`} status={save.status} />
    </span>
  );
}
