/**
 * One channel's settings: general (name, description, privacy, history, folder, topics,
 * retention), permissions (group settings) and subscribers, saved with PATCH /streams/{id}
 * and the subscription endpoints. What is shown follows the stream events.
 */
import { useMemo, useState } from 'react';
import { t } from '../../i18n';
import { SettingsSection } from '../../settings/controls';
import { call } from '../api';
import { generalFields, PERMISSION_FIELDS } from '../channelFields';
import { SettingsForm } from '../components/SettingsForm';
import { Tabs } from '../components/Tabs';
import { useViewer, type AdminChannel } from '../data';
import { useFolders } from './ChannelCreate';
import { ChannelSubscribers } from './ChannelSubscribers';

type Tab = 'general' | 'permissions' | 'subscribers';

export function ChannelEdit({ channel, canEdit, onBack }: { channel: AdminChannel; canEdit: boolean; onBack: () => void }) {
  const viewer = useViewer();
  const folders = useFolders();
  const [tab, setTab] = useState<Tab>('general');
  const general = useMemo(() => generalFields(folders.filter((f) => !f.is_archived || f.id === channel.folder_id), t('admin.channel.no_folder')), [folders, channel.folder_id]);
  const save = (params: Record<string, unknown>) => call('PATCH', `/streams/${channel.stream_id}`, params);
  const editable = canEdit && !channel.is_archived;
  return (
    <SettingsSection title={channel.invite_only ? channel.name : `#${channel.name}`} testId="admin-channel-edit">
      <p>
        <button type="button" onClick={onBack}>{t('admin.channel.back')}</button>
      </p>
      {channel.is_archived && <p className="settings-note">{t('admin.channel.is_archived')}</p>}
      <Tabs
        label={t('admin.channel.settings_of', { name: channel.name })}
        current={tab}
        onChange={setTab}
        tabs={[
          { key: 'general', label: t('admin.channel.tab_general') },
          { key: 'permissions', label: t('admin.channel.tab_permissions') },
          { key: 'subscribers', label: t('admin.channel.tab_subscribers') },
        ]}
      >
        {tab === 'general' && <SettingsForm title={t('admin.channel.tab_general')} fields={general} source={channel} canEdit={editable} isOwner={viewer.isOwner} save={save} testId="channel-general-form" />}
        {tab === 'permissions' && <SettingsForm title={t('admin.channel.tab_permissions')} fields={PERMISSION_FIELDS} source={channel} canEdit={editable} isOwner={viewer.isOwner} save={save} testId="channel-permissions-form" />}
        {tab === 'subscribers' && <ChannelSubscribers channel={channel} canEdit={editable} />}
      </Tabs>
    </SettingsSection>
  );
}
