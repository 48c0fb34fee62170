/**
 * The Send button with its menu beside it: send later (tomorrow 9 am, Monday 9 am and the
 * other presets, or a chosen date and time), the link to the scheduled messages, and which
 * key sends. The hint under the box says which key sends; clicking it switches the setting
 * (PATCH /json/settings enter_sends; the store follows the user_settings event).
 */
import { useState } from 'react';
import { api, errorText } from '../api';
import { t, type StringKey } from '../i18n';
import { Dialog } from '../ui/Dialog';
import { MenuButton, type MenuItem } from '../ui/Menu';
import { useTimeFormat } from '../ui/time';
import { useEnterSends } from './MarkdownEditor';
import { parseLocalDateTime, schedulePresets, toLocalInputValue, validScheduleTime, type PresetId } from './schedule';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const PRESET_LABELS: Record<PresetId, StringKey> = {
  today_9: 'compose.schedule.today',
  today_16: 'compose.schedule.today',
  tomorrow_9: 'compose.schedule.tomorrow',
  tomorrow_16: 'compose.schedule.tomorrow',
  monday_9: 'compose.schedule.monday',
};

function useEnterSendsToggle(): { enterSends: boolean; saving: boolean; toggle: (value?: boolean) => void; error?: string } {
  const enterSends = useEnterSends();
  const [saving, setSaving] = useState<boolean | null>(null);
  const [error, setError] = useState<string>();
  const toggle = (value = !enterSends) => {
    setSaving(value);
    setError(undefined);
    api.call('PATCH', '/settings', { enter_sends: value }).then(
      () => setSaving(null),
      (err) => {
        setSaving(null);
        setError(errorText(err));
      },
    );
  };
  // Until the event confirms it, the hint shows the value asked for.
  return { enterSends: saving ?? enterSends, saving: saving !== null, toggle, error };
}

export function SendControls({ onSend, onSchedule, disabled, busyReason, editingScheduledAt }: { onSend: () => void; onSchedule: (at: Date) => void; disabled: boolean; busyReason?: string; editingScheduledAt?: number }) {
  const fmt = useTimeFormat();
  const keys = useEnterSendsToggle();
  const [custom, setCustom] = useState(false);
  const ctrl = isMac ? '⌘' : 'Ctrl';
  const sendKey = keys.enterSends ? t('compose.key_enter') : t('compose.key_ctrl_enter', { ctrl });
  const menu = (): MenuItem[] => [
    ...schedulePresets(new Date()).map((p): MenuItem => ({
      label: t(PRESET_LABELS[p.id], { time: fmt.time(p.at.getTime() / 1000) }),
      onSelect: () => onSchedule(p.at),
      testId: `schedule-${p.id}`,
    })),
    { label: t('compose.schedule.custom'), onSelect: () => setCustom(true), testId: 'schedule-custom' },
    { kind: 'link', label: t('compose.schedule.view'), href: '#scheduled' },
    { kind: 'separator' },
    { label: t('compose.enter_sends_on'), checked: keys.enterSends, onSelect: () => keys.toggle(true) },
    { label: t('compose.enter_sends_off', { ctrl }), checked: !keys.enterSends, onSelect: () => keys.toggle(false) },
  ];
  return (
    <div className="compose-send">
      <button
        type="button"
        className="compose-key-hint"
        onClick={() => keys.toggle()}
        disabled={keys.saving}
        title={keys.enterSends ? t('compose.switch_to_ctrl', { ctrl }) : t('compose.switch_to_enter')}
        data-testid="compose-enter-hint"
      >
        {t('compose.key_hint', { key: sendKey })}
      </button>
      {keys.error && <span role="alert" className="compose-error">{t('misc.error', { error: keys.error })}</span>}
      {busyReason && <span className="compose-busy">{busyReason}</span>}
      <span className="compose-send-group">
        <button type="submit" className="button primary compose-send-button" disabled={disabled} onClick={(e) => (e.preventDefault(), onSend())} data-testid="compose-send">
          {editingScheduledAt ? t('compose.schedule.save') : t('compose.send')}
        </button>
        <MenuButton label={t('compose.send_options')} items={menu} className="compose-send-menu" menuClassName="compose-menu" align="end" testId="compose-send-menu">
          <span aria-hidden="true">▾</span>
        </MenuButton>
      </span>
      {custom && <CustomTime onClose={() => setCustom(false)} onPick={(at) => (setCustom(false), onSchedule(at))} initial={editingScheduledAt} />}
    </div>
  );
}

function CustomTime({ onClose, onPick, initial }: { onClose: () => void; onPick: (at: Date) => void; initial?: number }) {
  const tomorrow9 = schedulePresets(new Date()).find((p) => p.id === 'tomorrow_9')!.at;
  const [value, setValue] = useState(toLocalInputValue(initial ? new Date(initial * 1000) : tomorrow9));
  const when = parseLocalDateTime(value);
  const ok = validScheduleTime(when, new Date());
  return (
    <Dialog
      title={t('compose.schedule.custom_title')}
      onClose={onClose}
      testId="schedule-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('misc.cancel')}
          </button>
          <button type="button" className="button primary" disabled={!ok} onClick={() => ok && onPick(when)} data-testid="schedule-confirm">
            {t('compose.schedule.confirm')}
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (ok) onPick(when);
        }}
      >
        <label className="schedule-field">
          {t('compose.schedule.when')}
          <input type="datetime-local" value={value} min={toLocalInputValue(new Date())} onChange={(e) => setValue(e.target.value)} required aria-describedby={ok ? undefined : 'schedule-invalid'} />
        </label>
        {!ok && (
          <p id="schedule-invalid" className="compose-error" role="alert">
            {t('compose.schedule.invalid')}
          </p>
        )}
      </form>
    </Dialog>
  );
}
