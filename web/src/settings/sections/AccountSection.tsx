/** Account & privacy: email, password, API key, deactivating the account, and privacy settings. */
import { useId, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { SettingsGroup, SettingsSection } from '../controls';
import { deactivateSelf, patchSettings } from '../lib/calls';
import { passwordStrength, DEFAULT_RULES, type PasswordRules } from '../lib/password';
import { UserSelect, UserToggle } from '../UserControls';
import { ApiKey } from './ApiKey';

export function AccountSection() {
  const reg = useReg();
  return (
    <SettingsSection title={t('settings.nav.account')} testId="settings-account">
      <SettingsGroup title={t('settings.account.heading')}>
        <EmailSetting />
        {reg.realm_email_auth_enabled !== false && <PasswordChange />}
      </SettingsGroup>
      <ApiKey />
      <SettingsGroup title={t('settings.privacy.heading')}>
        <UserToggle name="send_private_typing_notifications" label="settings.privacy.send_private_typing_notifications" />
        <UserToggle name="send_stream_typing_notifications" label="settings.privacy.send_stream_typing_notifications" />
        <UserToggle name="send_read_receipts" label="settings.privacy.send_read_receipts" disabled={reg.realm_enable_read_receipts === false} />
        <UserToggle name="presence_enabled" label="settings.privacy.presence_enabled" />
        <UserSelect name="email_address_visibility" label="settings.privacy.email_address_visibility" />
        <UserToggle name="allow_private_data_export" label="settings.privacy.allow_private_data_export" />
      </SettingsGroup>
      <Deactivate />
    </SettingsSection>
  );
}

/** The address the person signs in with, and asking for a new one (confirmed by email). */
function EmailSetting() {
  const reg = useReg();
  const id = useId();
  const email = (reg.delivery_email as string | undefined) ?? reg.email;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const locked = reg.realm_email_changes_disabled === true && !reg.is_admin;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      const answer = await patchSettings({ email: draft.trim() });
      setOpen(false);
      setNotice(answer.ignored_parameters_unsupported?.includes('email') ? t('settings.account.email_unsupported') : t('settings.account.email_sent', { email: draft.trim() }));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="setting-row">
      <div className="setting-text">
        <div id={id}>{t('settings.account.email')}</div>
        <strong aria-labelledby={id} data-testid="account-email">{email}</strong>
        {locked && <div className="setting-hint">{t('settings.account.email_disabled')}</div>}
        {notice && <div className="settings-note" role="status">{notice}</div>}
      </div>
      <div className="setting-control">
        <button type="button" disabled={locked} onClick={() => { setDraft(''); setError(''); setOpen(true); }}>{t('settings.account.email_change')}</button>
      </div>
      {open && (
        <Dialog title={t('settings.account.email_change')} onClose={() => setOpen(false)}>
          <form onSubmit={submit} className="settings-dialog-form">
            <label htmlFor={`${id}-new`}>{t('settings.account.email_new')}</label>
            <input id={`${id}-new`} type="email" required value={draft} onChange={(e) => setDraft(e.target.value)} aria-describedby={`${id}-err`} autoComplete="email" />
            <p id={`${id}-err`} className="settings-error" role="alert">{error}</p>
            <div className="dialog-footer">
              <button type="button" className="button" onClick={() => setOpen(false)}>{t('misc.cancel')}</button>
              <button type="submit" className="button primary" disabled={!draft.trim()} aria-disabled={busy || undefined}>{busy ? t('settings.working') : t('settings.account.email_change')}</button>
            </div>
          </form>
        </Dialog>
      )}
    </div>
  );
}

function rulesOf(reg: Record<string, unknown>): PasswordRules {
  return {
    minLength: Number(reg.password_min_length ?? DEFAULT_RULES.minLength),
    maxLength: Number(reg.password_max_length ?? DEFAULT_RULES.maxLength),
    minGuesses: Number(reg.password_min_guesses ?? DEFAULT_RULES.minGuesses),
  };
}

const METER_COLOURS = ['#b42318', '#d9480f', '#d9a400', '#5c940d', '#1a7f37'];

/** Old and new password, with the new one's strength while typing; the server's answer in words. */
function PasswordChange() {
  const reg = useReg();
  const id = useId();
  const rules = rulesOf(reg);
  const [open, setOpen] = useState(false);
  const [oldPw, setOldPw] = useState('');
  const [newPw, setNewPw] = useState('');
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const strength = passwordStrength(newPw, rules);
  const problem =
    strength.problem === 'too_short' ? t('settings.account.too_short', { min: rules.minLength })
    : strength.problem === 'too_long' ? t('settings.account.too_long', { max: rules.maxLength })
    : strength.problem === 'too_guessable' ? t('settings.account.too_guessable') : '';

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (strength.problem) return;
    setBusy(true);
    setError('');
    try {
      await patchSettings({ old_password: oldPw, new_password: newPw });
      setOpen(false);
      setDone(true);
      setOldPw('');
      setNewPw('');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="setting-row">
      <div className="setting-text">
        <div>{t('settings.account.password')}</div>
        {done && <div className="settings-note" role="status">{t('settings.account.password_changed')}</div>}
      </div>
      <div className="setting-control">
        <button type="button" onClick={() => { setOpen(true); setDone(false); setError(''); }}>{t('settings.account.password_change')}</button>
      </div>
      {open && (
        <Dialog title={t('settings.account.password_change')} onClose={() => setOpen(false)} testId="password-dialog">
          <form onSubmit={submit} className="settings-dialog-form">
            <label htmlFor={`${id}-old`}>{t('settings.account.password_old')}</label>
            <input id={`${id}-old`} type={show ? 'text' : 'password'} required value={oldPw} onChange={(e) => setOldPw(e.target.value)} autoComplete="current-password" />
            <label htmlFor={`${id}-new`}>{t('settings.account.password_new')}</label>
            <input id={`${id}-new`} type={show ? 'text' : 'password'} required value={newPw} onChange={(e) => setNewPw(e.target.value)} autoComplete="new-password" aria-describedby={`${id}-strength ${id}-problem`} />
            <div className="password-meter" aria-hidden="true">
              <span style={{ width: `${newPw ? (strength.score + 1) * 20 : 0}%`, background: METER_COLOURS[strength.score] }} />
            </div>
            <div id={`${id}-strength`} className="setting-hint" aria-live="polite">
              {newPw && t('settings.account.strength', { level: t(`settings.account.strength.${strength.score}`) })}
            </div>
            <div id={`${id}-problem`} className="settings-error">{newPw && problem}</div>
            <label className="settings-inline">
              <input type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} /> {t('settings.account.password_show')}
            </label>
            <p className="settings-error" role="alert">{error}</p>
            <div className="dialog-footer">
              <button type="button" className="button" onClick={() => setOpen(false)}>{t('misc.cancel')}</button>
              <button type="submit" className="button primary" disabled={!oldPw || !!strength.problem} aria-disabled={busy || undefined}>{busy ? t('settings.working') : t('settings.account.password_change')}</button>
            </div>
          </form>
        </Dialog>
      )}
    </div>
  );
}

/** Deactivating one's own account, after a confirmation; the server refuses the last owner. */
function Deactivate() {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const confirm = async () => {
    setBusy(true);
    setError('');
    try {
      await deactivateSelf();
      location.assign('/login/');
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <SettingsGroup title={t('settings.account.deactivate')}>
      <button type="button" className="danger" onClick={() => { setError(''); setOpen(true); }} data-testid="deactivate-account">{t('settings.account.deactivate')}</button>
      {open && (
        <Dialog
          title={t('settings.account.deactivate_title')}
          onClose={() => !busy && setOpen(false)}
          footer={
            <>
              <button type="button" className="button" onClick={() => setOpen(false)} disabled={busy}>{t('misc.cancel')}</button>
              <button type="button" className="button danger" onClick={() => !busy && confirm()} aria-disabled={busy || undefined}>{busy ? t('settings.working') : t('settings.account.deactivate_confirm')}</button>
            </>
          }
        >
          <p>{t('settings.account.deactivate_about')}</p>
          {error && <p className="settings-error" role="alert">{error}</p>}
        </Dialog>
      )}
    </SettingsGroup>
  );
}

