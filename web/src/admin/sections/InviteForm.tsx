/**
 * Inviting people: by email (POST /invites) or with a reusable link (POST /invites/multiuse),
 * as a role, to the default channels and/or chosen ones, with an expiry. The server's refusal
 * is shown under the button; a created link is shown with a copy button.
 */
import { useId, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SettingsGroup } from '../../settings/controls';
import { call } from '../api';
import { Tabs } from '../components/Tabs';
import { useAllChannels, useRealmPermission, useViewer } from '../data';
import { EXPIRY_CHOICES, emailInviteParams, invitableRoles, linkInviteParams, parseEmails, type InviteForm as Form } from '../invites';
import { roleLabel } from '../labels';
import { ChannelMark } from '../components/ChannelMark';

const INITIAL: Form = { emails: '', inviteAs: 400, expiresInMinutes: 10 * 24 * 60, includeDefaults: true, streamIds: [], groupIds: [], notifyReferrer: true };

export function InviteForm() {
  const id = useId();
  const viewer = useViewer();
  const canLink = useRealmPermission('create_multiuse_invite_group') || viewer.isAdmin;
  const channels = useAllChannels().filter((c) => !c.is_archived);
  const [mode, setMode] = useState<'email' | 'link'>('email');
  const [form, setForm] = useState<Form>(INITIAL);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'sent'; count: number } | { kind: 'link'; url: string } | { kind: 'error'; message: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const emails = parseEmails(form.emails);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setResult(null);
    setCopied(false);
    const request = mode === 'email' ? call('POST', '/invites', emailInviteParams(form)) : call<{ invite_link: string }>('POST', '/invites/multiuse', linkInviteParams(form));
    request.then(
      (res) => {
        setBusy(false);
        if (mode === 'email') {
          setResult({ kind: 'sent', count: emails.length });
          set({ emails: '' });
        } else setResult({ kind: 'link', url: String((res as { invite_link?: string }).invite_link ?? '') });
      },
      (err: unknown) => {
        setBusy(false);
        setResult({ kind: 'error', message: errorText(err) });
      },
    );
  };

  const tabs = [{ key: 'email' as const, label: t('admin.invite.by_email') }, ...(canLink ? [{ key: 'link' as const, label: t('admin.invite.by_link') }] : [])];
  return (
    <SettingsGroup title={t('admin.invite.title')}>
      <Tabs label={t('admin.invite.how')} tabs={tabs} current={mode} onChange={(m) => { setMode(m); setResult(null); }}>
        <form className="admin-form" onSubmit={submit} data-testid="invite-form">
          {mode === 'email' && (
            <div className="setting-row setting-text-field">
              <div className="setting-text">
                <label htmlFor={`${id}-emails`}>{t('admin.invite.emails')}</label>
                <div className="setting-hint">{t('admin.invite.emails_hint')}</div>
              </div>
              <div className="setting-control">
                <textarea id={`${id}-emails`} rows={3} value={form.emails} onChange={(e) => set({ emails: e.target.value })} />
              </div>
            </div>
          )}
          <div className="setting-row setting-select">
            <div className="setting-text"><label htmlFor={`${id}-expiry`}>{t('admin.invite.expires')}</label></div>
            <div className="setting-control">
              <select id={`${id}-expiry`} value={String(EXPIRY_CHOICES.findIndex((c) => c.minutes === form.expiresInMinutes))} onChange={(e) => set({ expiresInMinutes: EXPIRY_CHOICES[Number(e.target.value)]!.minutes })}>
                {EXPIRY_CHOICES.map((c, i) => (
                  <option key={i} value={String(i)}>{t(c.label)}</option>
                ))}
              </select>
            </div>
          </div>
          <div className="setting-row setting-select">
            <div className="setting-text"><label htmlFor={`${id}-role`}>{t('admin.invite.as')}</label></div>
            <div className="setting-control">
              <select id={`${id}-role`} value={form.inviteAs} onChange={(e) => set({ inviteAs: Number(e.target.value) })}>
                {invitableRoles(viewer).map((r) => (
                  <option key={r} value={r}>{roleLabel(r)}</option>
                ))}
              </select>
            </div>
          </div>
          <fieldset className="admin-channel-choice">
            <legend>{t('admin.invite.channels')}</legend>
            <label className="checkbox-row">
              <input type="checkbox" checked={form.includeDefaults} onChange={(e) => set({ includeDefaults: e.target.checked })} />
              {t('admin.invite.default_channels')}
            </label>
            <div className="admin-checklist" role="group" aria-label={t('admin.invite.more_channels')}>
              {channels.map((c) => (
                <label key={c.stream_id} className="checkbox-row">
                  <input
                    type="checkbox"
                    checked={form.streamIds.includes(c.stream_id)}
                    onChange={(e) => set({ streamIds: e.target.checked ? [...form.streamIds, c.stream_id] : form.streamIds.filter((x) => x !== c.stream_id) })}
                  />
                  <ChannelMark channel={c} />
                  {c.name}
                </label>
              ))}
            </div>
          </fieldset>
          {mode === 'email' && (
            <label className="checkbox-row">
              <input type="checkbox" checked={form.notifyReferrer} onChange={(e) => set({ notifyReferrer: e.target.checked })} />
              {t('admin.invite.notify_me')}
            </label>
          )}
          <div className="settings-actions">
            <button type="submit" className="primary" disabled={busy || (mode === 'email' && !emails.length)}>
              {busy ? t('admin.working') : mode === 'email' ? t('admin.invite.send', { count: emails.length }) : t('admin.invite.create_link')}
            </button>
            <span role="status" aria-live="polite">
              {result?.kind === 'sent' && <span className="save-saved">{t('admin.invite.sent', { count: result.count })}</span>}
            </span>
            {result?.kind === 'error' && <span className="settings-error" role="alert">{t('admin.refused', { error: result.message })}</span>}
          </div>
          {result?.kind === 'link' && (
            <div className="settings-note" role="status">
              <label htmlFor={`${id}-link`}>{t('admin.invite.link_ready')}</label>
              <div className="settings-actions">
                <input id={`${id}-link`} type="text" readOnly value={result.url} className="admin-link-field" onFocus={(e) => e.target.select()} />
                <button type="button" onClick={() => navigator.clipboard?.writeText(result.url).then(() => setCopied(true), () => setCopied(false))}>{t('admin.copy')}</button>
                {copied && <span className="save-saved">{t('admin.copied')}</span>}
              </div>
            </div>
          )}
        </form>
      </Tabs>
    </SettingsGroup>
  );
}
