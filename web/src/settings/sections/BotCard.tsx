/** One bot: its picture, name, address and type, with edit, key, deactivate and reactivate. */
import { useId, useRef, useState } from 'react';
import { errorText } from '../../api';
import { t, type StringKey } from '../../i18n';
import { useAppState } from '../../state/store';
import { Avatar } from '../../ui/Avatar';
import { Dialog } from '../../ui/Dialog';
import { SaveState, useSave } from '../controls';
import { botApiKey, deactivateBot, reactivateUser, regenerateBotKey, updateBot, updateBotAvatar } from '../lib/calls';
import { downloadText } from '../lib/download';
import { zuliprcFileName, zuliprcText } from '../lib/zuliprc';
import { WebhookUrlDialog } from './IncomingWebhook';

export interface Bot {
  user_id: number;
  full_name: string;
  email: string;
  bot_type: number;
  is_active?: boolean;
  avatar_url?: string | null;
  owner_id?: number | null;
  services?: Array<{ token?: string }>;
}

function useBot(id: number): Bot | undefined {
  return useAppState((s) => ((s.reg?.realm_bots as Bot[] | undefined) ?? []).find((b) => b.user_id === id));
}

export function BotCard({ bot }: { bot: Bot }) {
  const id = useId();
  const active = bot.is_active !== false;
  // Deactivating or reactivating is confirmed by the realm_bot event changing is_active.
  const state = useSave<boolean>(active);
  // An edit the server accepted shows "Saving…" on the card until the realm_bot event arrives.
  const edit = useSave<string>(`${bot.full_name}\n${bot.avatar_url ?? ''}`);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [showingUrl, setShowingUrl] = useState(false);
  const [key, setKey] = useState<string | null>(null);
  const [keyError, setKeyError] = useState('');
  const name = bot.full_name;

  const showKey = async () => {
    setKeyError('');
    try {
      setKey((await botApiKey(bot.user_id)).api_key);
    } catch (err) {
      setKeyError(errorText(err));
    }
  };
  const regenerate = async () => {
    setKeyError('');
    try {
      setKey((await regenerateBotKey(bot.user_id)).api_key);
    } catch (err) {
      setKeyError(errorText(err));
    }
  };
  const token = bot.bot_type === 3 ? bot.services?.[0]?.token : undefined;

  return (
    <div className="bot-card" data-testid={`bot-${bot.user_id}`}>
      <span role="img" aria-label={t('settings.bots.avatar_alt', { name })}>
        <Avatar userId={bot.user_id} size={48} />
      </span>
      <div className="grow">
        <strong>{name}</strong>
        <div className="setting-hint">{bot.email}</div>
        <div className="setting-hint">{t(`settings.bots.type.${bot.bot_type}` as StringKey)}</div>
        {key && (
          <div>
            <div id={`${id}-key`} className="setting-hint">{t('settings.bots.key_of', { name })}</div>
            <code className="settings-key" aria-labelledby={`${id}-key`}>{key}</code>
            <div className="settings-actions">
              <button type="button" aria-label={t('settings.bots.download_label', { name })} onClick={() => downloadText(zuliprcFileName(bot.email), zuliprcText({ email: bot.email, apiKey: key, site: location.origin, token }))}>
                {t('settings.account.download_zuliprc')}
              </button>
              <button type="button" aria-label={t('settings.bots.regenerate_label', { name })} onClick={regenerate}>{t('settings.account.regenerate')}</button>
              <button type="button" onClick={() => setKey(null)}>{t('settings.account.hide_key')}</button>
            </div>
          </div>
        )}
        {keyError && <p className="settings-error" role="alert">{keyError}</p>}
        <div className="settings-actions">
          {active ? (
            <>
              <button type="button" aria-label={t('settings.bots.edit_label', { name })} onClick={() => setEditing(true)}>{t('settings.bots.edit')}</button>
              {!key && <button type="button" aria-label={t('settings.bots.show_key_label', { name })} onClick={showKey}>{t('settings.bots.show_key')}</button>}
              {bot.bot_type === 2 && <button type="button" aria-label={t('settings.webhook.url_label', { name })} onClick={() => setShowingUrl(true)}>{t('settings.webhook.url_button')}</button>}
              <button type="button" className="danger" aria-label={t('settings.bots.deactivate_label', { name })} onClick={() => setConfirming(true)}>{t('settings.bots.deactivate')}</button>
            </>
          ) : (
            <button type="button" aria-label={t('settings.bots.reactivate_label', { name })} aria-describedby={`${id}-state`} disabled={state.status.kind === 'saving'} onClick={() => state.save(() => reactivateUser(bot.user_id), true)}>
              {t('settings.bots.reactivate')}
            </button>
          )}
          <SaveState id={`${id}-state`} status={state.status.kind === 'idle' ? edit.status : state.status} />
        </div>
      </div>
      {editing && (
        <EditBot
          bot={bot}
          onClose={() => setEditing(false)}
          onSaved={(name, avatarChanged) => {
            const beforeUrl = bot.avatar_url ?? '';
            edit.save(() => Promise.resolve(), undefined, (now) => {
              const [n, url] = now.split('\n');
              return n === name && (!avatarChanged || url !== beforeUrl);
            });
          }}
        />
      )}
      {showingUrl && <WebhookUrlDialog bot={bot} onClose={() => setShowingUrl(false)} />}
      {confirming && (
        <Dialog
          title={t('settings.bots.deactivate_title', { name })}
          onClose={() => setConfirming(false)}
          footer={
            <>
              <button type="button" className="button" onClick={() => setConfirming(false)}>{t('misc.cancel')}</button>
              <button
                type="button"
                className="button danger"
                onClick={() => {
                  setConfirming(false);
                  setKey(null);
                  state.save(() => deactivateBot(bot.user_id), false);
                }}
              >
                {t('settings.bots.deactivate')}
              </button>
            </>
          }
        >
          <p>{t('settings.bots.deactivate_about')}</p>
        </Dialog>
      )}
    </div>
  );
}

/** Renaming a bot and changing its picture; a refusal stays in the dialog, in words. */
function EditBot({ bot, onClose, onSaved }: { bot: Bot; onClose: () => void; onSaved: (name: string, avatarChanged: boolean) => void }) {
  const id = useId();
  const live = useBot(bot.user_id) ?? bot;
  const [fullName, setFullName] = useState(live.full_name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const file = useRef<HTMLInputElement>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      const name = fullName.trim();
      if (name !== live.full_name) await updateBot(bot.user_id, { full_name: name });
      const avatar = file.current?.files?.[0];
      if (avatar) await updateBotAvatar(bot.user_id, avatar);
      onSaved(name, !!avatar);
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <Dialog title={t('settings.bots.edit_title', { name: live.full_name })} onClose={onClose}>
      <form className="settings-dialog-form" onSubmit={submit}>
        <label htmlFor={`${id}-name`}>{t('settings.bots.full_name')}</label>
        <input id={`${id}-name`} type="text" required maxLength={100} value={fullName} onChange={(e) => setFullName(e.target.value)} />
        <label htmlFor={`${id}-avatar`}>{t('settings.bots.avatar')}</label>
        <input id={`${id}-avatar`} ref={file} type="file" accept="image/*" />
        <p className="settings-error" role="alert">{error}</p>
        <div className="dialog-footer">
          <button type="button" className="button" onClick={onClose}>{t('misc.cancel')}</button>
          <button type="submit" className="button primary" disabled={!fullName.trim()} aria-disabled={busy || undefined}>{busy ? t('settings.working') : t('misc.save')}</button>
        </div>
      </form>
    </Dialog>
  );
}
