/**
 * The person's API key: shown after entering the password again (POST /fetch_api_key), with a
 * zuliprc file to download and a way to replace the key (the old one stops working).
 */
import { useId, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { useReg } from '../../state/store';
import { Dialog } from '../../ui/Dialog';
import { SettingsGroup } from '../controls';
import { fetchApiKey, regenerateApiKey } from '../lib/calls';
import { downloadText } from '../lib/download';
import { zuliprcFileName, zuliprcText } from '../lib/zuliprc';

export function ApiKey() {
  const reg = useReg();
  const id = useId();
  const [password, setPassword] = useState('');
  const [key, setKey] = useState<{ apiKey: string; email: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [confirming, setConfirming] = useState(false);
  const username = (reg.delivery_email as string | undefined) ?? reg.email;

  const reveal = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      const answer = await fetchApiKey(username, password);
      setKey({ apiKey: answer.api_key, email: answer.email ?? reg.email });
      setPassword('');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const regenerate = async () => {
    setBusy(true);
    setError('');
    try {
      const answer = await regenerateApiKey();
      setKey((k) => ({ email: k?.email ?? reg.email, apiKey: answer.api_key }));
      setNotice(t('settings.account.regenerated'));
      setConfirming(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsGroup title={t('settings.account.api_key')} description={t('settings.account.api_key_about')}>
      {!key ? (
        <form className="settings-actions" onSubmit={reveal}>
          <label htmlFor={`${id}-pw`}>{t('settings.account.api_key_password')}</label>
          <input id={`${id}-pw`} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" aria-describedby={`${id}-err`} />
          <button type="submit" disabled={!password} aria-disabled={busy || undefined}>{busy ? t('settings.working') : t('settings.account.api_key_get')}</button>
        </form>
      ) : (
        <div data-testid="api-key">
          <div className="setting-row">
            <div className="setting-text">
              <div id={`${id}-label`}>{t('settings.account.api_key_label')}</div>
              <code className="settings-key" aria-labelledby={`${id}-label`}>{key.apiKey}</code>
            </div>
          </div>
          <div className="settings-actions">
            <button type="button" onClick={() => downloadText(zuliprcFileName(), zuliprcText({ email: key.email, apiKey: key.apiKey, site: location.origin }))}>
              {t('settings.account.download_zuliprc')}
            </button>
            <button type="button" onClick={() => { setNotice(''); setConfirming(true); }}>{t('settings.account.regenerate')}</button>
            <button type="button" onClick={() => { setKey(null); setNotice(''); }}>{t('settings.account.hide_key')}</button>
          </div>
          {notice && <p className="settings-note" role="status">{notice}</p>}
        </div>
      )}
      <p id={`${id}-err`} className="settings-error" role="alert">{!confirming ? error : ''}</p>
      {confirming && (
        <Dialog
          title={t('settings.account.regenerate')}
          onClose={() => setConfirming(false)}
          footer={
            <>
              <button type="button" className="button" onClick={() => setConfirming(false)}>{t('misc.cancel')}</button>
              <button type="button" className="button primary" onClick={() => !busy && regenerate()} aria-disabled={busy || undefined}>{busy ? t('settings.working') : t('settings.account.regenerate')}</button>
            </>
          }
        >
          <p>{t('settings.account.regenerate_confirm')}</p>
          {error && <p className="settings-error" role="alert">{error}</p>}
        </Dialog>
      )}
    </SettingsGroup>
  );
}
