/** Muted users: who the person has muted, each with an Unmute button (DELETE /users/me/muted_users/{id}). */
import { useEffect, useRef, useState } from 'react';
import { t } from '../../i18n';
import { useAppState } from '../../state/store';
import { SaveState, SettingsSection, useSave } from '../controls';
import { unmuteUser } from '../lib/calls';

const NONE: Array<{ id: number; timestamp: number }> = [];

export function MutedUsersSection() {
  const muted = useAppState((s) => s.reg?.muted_users ?? NONE);
  const sorted = muted.slice().sort((a, b) => b.timestamp - a.timestamp);
  // A row leaves the list once its event arrives; the outcome is said here instead.
  const [notice, setNotice] = useState('');
  return (
    <SettingsSection title={t('settings.nav.muted_users')} description={t('settings.muted.about')} testId="settings-muted-users">
      <p className="settings-note" role="status" hidden={!notice}>{notice}</p>
      {sorted.length === 0 ? (
        <p className="settings-note">{t('settings.muted.none')}</p>
      ) : (
        <ul className="settings-list">
          {sorted.map((m) => <MutedRow key={m.id} id={m.id} timestamp={m.timestamp} onGone={(name) => setNotice(t('settings.muted.unmuted', { name }))} />)}
        </ul>
      )}
    </SettingsSection>
  );
}

function MutedRow({ id, timestamp, onGone }: { id: number; timestamp: number; onGone: (name: string) => void }) {
  const name = useAppState((s) => s.users.get(id)?.full_name) ?? t('settings.muted.unknown', { id });
  const stillMuted = useAppState((s) => (s.reg?.muted_users ?? NONE).some((m) => m.id === id));
  const save = useSave(stillMuted);
  const latest = useRef({ saving: false, name, onGone });
  latest.current = { saving: save.status.kind === 'saving', name, onGone };
  useEffect(
    () => () => {
      // Unmounted while unmuting: the muted_users event removed this person, so it took effect.
      const { saving, name: gone, onGone: report } = latest.current;
      if (saving) report(gone);
    },
    [],
  );
  const date = new Date(timestamp * 1000).toLocaleDateString();
  return (
    <li>
      <span className="grow">
        <strong>{name}</strong> <span className="setting-hint">{t('settings.muted.since', { date })}</span>
      </span>
      <button type="button" aria-label={t('settings.muted.unmute_label', { name })} aria-describedby={`muted-${id}-state`} disabled={save.status.kind === 'saving'} onClick={() => save.save(() => unmuteUser(id), false)}>
        {t('settings.muted.unmute')}
      </button>
      <SaveState id={`muted-${id}-state`} status={save.status} />
    </li>
  );
}
