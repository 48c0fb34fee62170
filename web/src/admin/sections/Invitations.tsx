/**
 * Invitations: the form to invite, and the pending invitations and links (GET /invites, fetched
 * on opening and again on invites_changed), each with resend (email) and revoke.
 */
import { useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SettingsGroup, SettingsSection } from '../../settings/controls';
import { useAppState } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { call } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useUserMap } from '../data';
import { sortInvites, type Invite } from '../invites';
import { roleLabel } from '../labels';
import { useFetchedList } from '../useFetchedList';
import { InviteForm } from './InviteForm';

const loadInvites = () => call<{ invites: Invite[] }>('GET', '/invites').then((r) => sortInvites(r.invites));

function when(seconds: number | null): string {
  return seconds === null ? t('admin.invite.never') : new Date(seconds * 1000).toLocaleString();
}

export default function Invitations(_: SectionProps) {
  const users = useUserMap();
  const invitesVersion = useAppState((s) => s.invitesVersion);
  const list = useFetchedList(loadInvites, { version: invitesVersion });
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const [rowState, setRowState] = useState<Record<number, { ok?: string; error?: string }>>({});

  const resend = (inv: Invite) => {
    setRowState((s) => ({ ...s, [inv.id]: {} }));
    call('POST', `/invites/${inv.id}/resend`).then(
      () => setRowState((s) => ({ ...s, [inv.id]: { ok: t('admin.invite.resent') } })),
      (err: unknown) => setRowState((s) => ({ ...s, [inv.id]: { error: errorText(err) } })),
    );
  };

  return (
    <SettingsSection title={t('admin.section.invites')} testId="admin-invites">
      <InviteForm />
      <SettingsGroup title={t('admin.invite.pending')}>
        {list.error && <p className="settings-error" role="alert">{t('admin.load_failed', { error: list.error })} <button type="button" onClick={list.reload}>{t('admin.retry')}</button></p>}
        {list.loading && !list.data && <p role="status">{t('settings.loading')}</p>}
        {list.data && !list.data.length && <p className="settings-description">{t('admin.invite.none')}</p>}
        {list.data && list.data.length > 0 && (
          <div className="settings-table-wrap">
            <table className="settings-table" data-testid="invites-table">
              <caption className="visually-hidden">{t('admin.invite.pending')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.invite.invitee')}</th>
                  <th scope="col">{t('admin.invite.as')}</th>
                  <th scope="col">{t('admin.invite.expires')}</th>
                  <th scope="col"><span className="visually-hidden">{t('admin.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((inv) => (
                  <tr key={`${inv.is_multiuse ? 'm' : 'e'}${inv.id}`}>
                    <td className="admin-email">
                      {inv.is_multiuse ? <span>{t('admin.invite.link')} <code className="admin-link" title={inv.link_url}>{inv.link_url}</code></span> : inv.email}
                      <div className="admin-sub">{t('admin.invite.by_on', { name: users.get(inv.invited_by_user_id)?.full_name ?? '—', when: when(inv.invited) })}</div>
                    </td>
                    <td>{roleLabel(inv.invited_as)}</td>
                    <td>{when(inv.expiry_date)}</td>
                    <td className="admin-row-actions">
                      {!inv.is_multiuse && <button type="button" onClick={() => resend(inv)} aria-label={t('admin.invite.resend_to', { email: inv.email ?? '' })}>{t('admin.invite.resend')}</button>}
                      <button type="button" className="danger-text" onClick={() => setRevoking(inv)} aria-label={t('admin.invite.revoke_named', { what: inv.email ?? t('admin.invite.link') })}>{t('admin.invite.revoke')}</button>
                      {rowState[inv.id]?.ok && <span className="save-saved" role="status">{rowState[inv.id]!.ok}</span>}
                      {rowState[inv.id]?.error && <span className="settings-error" role="alert">{rowState[inv.id]!.error}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </SettingsGroup>
      {revoking && (
        <ConfirmDialog
          title={t('admin.invite.revoke_title')}
          confirmLabel={t('admin.invite.revoke')}
          onClose={() => setRevoking(null)}
          onConfirm={() => call('DELETE', revoking.is_multiuse ? `/invites/multiuse/${revoking.id}` : `/invites/${revoking.id}`)}
        >
          <p>{revoking.is_multiuse ? t('admin.invite.revoke_link_detail') : t('admin.invite.revoke_detail', { email: revoking.email ?? '' })}</p>
        </ConfirmDialog>
      )}
    </SettingsSection>
  );
}
