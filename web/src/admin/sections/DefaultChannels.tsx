/**
 * Default channels: the channels new members join (register's realm_default_streams, kept by
 * default_streams events); administrators add one (POST /default_streams) or remove one.
 */
import { useId, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { useAllChannels } from '../data';
import { ChannelMark } from '../components/ChannelMark';

/** The ids of the default channels, whether the snapshot lists ids or channel objects. */
export function defaultChannelIds(raw: unknown): number[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((x) => (typeof x === 'number' ? x : Number((x as { stream_id?: number }).stream_id))).filter((x) => Number.isInteger(x));
}

export default function DefaultChannels({ access }: SectionProps) {
  const id = useId();
  const reg = useReg();
  const channels = useAllChannels().filter((c) => !c.is_archived);
  const defaults = new Set(defaultChannelIds(reg.realm_default_streams));
  const [adding, setAdding] = useState('');
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});
  const canEdit = access === 'edit';

  const change = (method: 'POST' | 'DELETE', streamId: number) => {
    const name = channels.find((c) => c.stream_id === streamId)?.name ?? String(streamId);
    setStatus({});
    call(method, '/default_streams', { stream_id: streamId }).then(
      () => {
        setStatus({ ok: t(method === 'POST' ? 'admin.defaults_ch.added' : 'admin.defaults_ch.removed', { name }) });
        if (method === 'POST') setAdding('');
      },
      (err: unknown) => setStatus({ error: errorText(err) }),
    );
  };

  const listed = channels.filter((c) => defaults.has(c.stream_id));
  const others = channels.filter((c) => !defaults.has(c.stream_id));
  return (
    <SettingsSection title={t('admin.section.default_channels')} description={t('admin.defaults_ch.about')} testId="admin-default-channels">
      {canEdit && (
        <form
          className="settings-actions"
          onSubmit={(e) => {
            e.preventDefault();
            if (adding) change('POST', Number(adding));
          }}
        >
          <label htmlFor={`${id}-add`}>{t('admin.defaults_ch.add_label')}</label>
          <select id={`${id}-add`} value={adding} onChange={(e) => setAdding(e.target.value)}>
            <option value="">{t('admin.defaults_ch.choose')}</option>
            {others.map((c) => (
              <option key={c.stream_id} value={c.stream_id}>{c.name}</option>
            ))}
          </select>
          <button type="submit" className="primary" disabled={!adding}>{t('admin.add')}</button>
        </form>
      )}
      <div aria-live="polite" className="settings-actions">
        {status.ok && <span className="save-saved" role="status">{status.ok}</span>}
        {status.error && <span className="settings-error" role="alert">{t('admin.refused', { error: status.error })}</span>}
      </div>
      <ul className="settings-list" data-testid="default-channels-list">
        {listed.map((c) => (
          <li key={c.stream_id}>
            <span className="grow">
              <ChannelMark channel={c} />
              {c.name}
            </span>
            {canEdit && <button type="button" onClick={() => change('DELETE', c.stream_id)} aria-label={t('admin.defaults_ch.remove_named', { name: c.name })}>{t('admin.remove')}</button>}
          </li>
        ))}
      </ul>
      {!listed.length && <p className="settings-description">{t('admin.defaults_ch.none')}</p>}
    </SettingsSection>
  );
}
