/**
 * Code playgrounds (register's realm_playgrounds, kept by realm_playgrounds events): where a
 * code block of a language can be opened. Adding (POST /realm/playgrounds) and deleting after
 * a confirmation.
 */
import { useId, useState } from 'react';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ActionStatus } from '../components/ActionStatus';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAction } from '../components/useAction';

interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export default function Playgrounds({ access }: SectionProps) {
  const reg = useReg();
  const list = ((reg.realm_playgrounds ?? []) as Playground[]).slice().sort((a, b) => a.pygments_language.localeCompare(b.pygments_language) || a.name.localeCompare(b.name));
  const canEdit = access === 'edit';
  const [deleting, setDeleting] = useState<Playground | null>(null);
  return (
    <SettingsSection title={t('admin.section.playgrounds')} description={t('admin.playgrounds.about')} testId="admin-playgrounds">
      {canEdit && <AddPlayground />}
      <SettingsGroup title={t('admin.playgrounds.list')}>
        <div className="settings-table-wrap">
          <table className="settings-table" data-testid="playgrounds-table">
            <caption className="visually-hidden">{t('admin.playgrounds.list')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.playgrounds.language')}</th>
                <th scope="col">{t('admin.playgrounds.name_template')}</th>
                {canEdit && <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.id}>
                  <td>{p.pygments_language}</td>
                  <td>
                    {p.name}
                    <div className="admin-sub admin-email"><code>{p.url_template}</code></div>
                  </td>
                  {canEdit && (
                    <td className="admin-row-actions">
                      <button type="button" className="danger-text" onClick={() => setDeleting(p)} aria-label={t('admin.delete_named', { name: p.name })}>{t('admin.delete')}</button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!list.length && <p className="settings-description">{t('admin.playgrounds.none')}</p>}
      </SettingsGroup>
      {deleting && (
        <ConfirmDialog title={t('admin.playgrounds.delete_title', { name: deleting.name })} confirmLabel={t('admin.delete')} onClose={() => setDeleting(null)} onConfirm={() => call('DELETE', `/realm/playgrounds/${deleting.id}`)}>
          <p>{t('admin.playgrounds.delete_detail', { language: deleting.pygments_language })}</p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}

function AddPlayground() {
  const id = useId();
  const [language, setLanguage] = useState('');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('');
  const action = useAction();
  return (
    <SettingsGroup title={t('admin.playgrounds.add')}>
      <form
        className="admin-inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          action.run(() => call('POST', '/realm/playgrounds', { name: name.trim(), pygments_language: language.trim(), url_template: template.trim() }), t('admin.playgrounds.added', { name: name.trim() }), () => {
            setLanguage('');
            setName('');
            setTemplate('');
          });
        }}
      >
        <label htmlFor={`${id}-lang`}>{t('admin.playgrounds.language')}</label>
        <input id={`${id}-lang`} type="text" required placeholder="Python" value={language} onChange={(e) => setLanguage(e.target.value)} />
        <label htmlFor={`${id}-name`}>{t('admin.playgrounds.name')}</label>
        <input id={`${id}-name`} type="text" required placeholder="Python playground" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor={`${id}-template`}>{t('admin.playgrounds.template')}</label>
        <input id={`${id}-template`} type="text" required placeholder="https://example.com/run?code={code}" value={template} onChange={(e) => setTemplate(e.target.value)} />
        <button type="submit" className="primary" disabled={!language.trim() || !name.trim() || !template.trim() || action.state.busy}>{t('admin.playgrounds.add_button')}</button>
        <ActionStatus state={action.state} />
      </form>
    </SettingsGroup>
  );
}
