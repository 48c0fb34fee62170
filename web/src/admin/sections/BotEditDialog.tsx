/**
 * Editing a bot as an administrator, as the family's admin form does: its name and owner
 * (PATCH /bots/{id}) and its picture (the same path, multipart, sent apart so that a server
 * refusing pictures does not lose the rest). Each part shows "Saving…" until the realm_user
 * event carries it; the dialog closes once every part sent has arrived, and a refusal stays in
 * the dialog, in the server's words.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { User } from '@chat/client';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SaveState, useSave } from '../../settings/controls';
import { Avatar } from '../../ui/Avatar';
import { Dialog } from '../../ui/Dialog';
import { call, sendForm } from '../api';
import { botEditApplied, botEditParams, botTypeKey, ownerChoices } from '../bots';
import { useUserMap } from '../data';

const pictureRefused = (err: unknown) => Promise.reject(new Error(t('admin.bots.avatar_refused', { error: errorText(err) })));

export function BotEditDialog({ bot, onClose }: { bot: User; onClose: () => void }) {
  const id = useId();
  const users = useUserMap();
  const owners = useMemo(() => ownerChoices(users.values(), bot.bot_owner_id), [users, bot.bot_owner_id]);
  const [name, setName] = useState(bot.full_name);
  const [ownerId, setOwnerId] = useState<number | null>(bot.bot_owner_id ?? null);
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const details = useSave(bot);
  const picture = useSave(bot);
  // The parts sent and not yet seen in the store.
  const [waiting, setWaiting] = useState<{ details: boolean; picture: boolean } | null>(null);

  useEffect(() => {
    if (details.status.kind === 'saved') setWaiting((w) => w && { ...w, details: false });
  }, [details.status]);
  useEffect(() => {
    if (picture.status.kind !== 'saved') return;
    setWaiting((w) => w && { ...w, picture: false });
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  }, [picture.status]);
  useEffect(() => {
    if (waiting && !waiting.details && !waiting.picture) onClose();
  }, [waiting, onClose]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const params = botEditParams(bot, { fullName: name, ownerId });
    const sendDetails = Object.keys(params).length > 0;
    if (!sendDetails && !file) return onClose();
    setWaiting({ details: sendDetails, picture: !!file });
    if (sendDetails) details.save(() => call('PATCH', `/bots/${bot.user_id}`, params), undefined, (u) => botEditApplied(u, params));
    if (file) {
      const before = bot.avatar_url;
      const form = new FormData();
      // The family's field name for a bot's picture.
      form.append('file-0', file, file.name);
      picture.save(
        () =>
          sendForm<{ avatar_url?: string | null }>('PATCH', `/bots/${bot.user_id}`, form)
            .then((res) => {
              // An answer with the old picture: the server took the request but not the image.
              if (res.avatar_url === undefined || res.avatar_url === before) throw new Error(t('admin.bots.avatar_unchanged'));
            })
            .catch(pictureRefused),
        undefined,
        (u) => u.avatar_url !== before,
      );
    }
  };

  const busy = details.status.kind === 'saving' || picture.status.kind === 'saving';
  return (
    <Dialog
      title={t('admin.bots.edit_title', { name: bot.full_name })}
      onClose={onClose}
      className="admin-dialog"
      testId="bot-edit-dialog"
      footer={
        <>
          <button type="button" onClick={onClose}>{t('misc.cancel')}</button>
          <button type="submit" form={`${id}-form`} className="primary" disabled={busy || !name.trim()}>{t('admin.save_changes')}</button>
        </>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} className="admin-form">
        <p className="setting-hint">
          {t(botTypeKey(bot.bot_type))} · {t('admin.bots.address', { email: bot.delivery_email ?? bot.email, id: bot.user_id })}
        </p>
        <div className="setting-row setting-text-field">
          <div className="setting-text"><label htmlFor={`${id}-name`}>{t('admin.bots.full_name')}</label></div>
          <div className="setting-control">
            <input id={`${id}-name`} type="text" value={name} required maxLength={100} aria-describedby={`${id}-details`} onChange={(e) => setName(e.target.value)} />
          </div>
        </div>
        <div className="setting-row setting-select">
          <div className="setting-text">
            <label htmlFor={`${id}-owner`}>{t('admin.bots.owner')}</label>
            <div id={`${id}-owner-hint`} className="setting-hint">{t('admin.bots.owner_hint')}</div>
          </div>
          <div className="setting-control">
            <select id={`${id}-owner`} value={ownerId ?? ''} aria-describedby={`${id}-owner-hint ${id}-details`} onChange={(e) => setOwnerId(e.target.value ? Number(e.target.value) : null)}>
              {ownerId === null && <option value="">{t('admin.bots.choose_owner')}</option>}
              {owners.map((u) => (
                <option key={u.user_id} value={u.user_id} disabled={!u.is_active}>{u.full_name}</option>
              ))}
            </select>
          </div>
        </div>
        <p className="admin-part-state">
          <SaveState id={`${id}-details`} status={details.status} />
        </p>
        <div className="setting-row admin-bot-avatar">
          <span role="img" aria-label={t('admin.bots.avatar_alt', { name: bot.full_name })}>
            <Avatar userId={bot.user_id} size={48} />
          </span>
          <div className="setting-text">
            <label htmlFor={`${id}-avatar`}>{t('admin.bots.avatar')}</label>
            <div id={`${id}-avatar-hint`} className="setting-hint">{t('admin.bots.avatar_hint')}</div>
            <input
              id={`${id}-avatar`}
              ref={fileInput}
              type="file"
              accept="image/png,image/gif,image/jpeg,image/webp"
              aria-describedby={`${id}-avatar-hint ${id}-picture`}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                picture.clear();
              }}
            />
            <SaveState id={`${id}-picture`} status={picture.status} />
          </div>
        </div>
      </form>
    </Dialog>
  );
}
