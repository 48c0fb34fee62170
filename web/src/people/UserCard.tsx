/**
 * The user card (a popover by the name or picture that opened it) and the full profile: picture
 * with presence, name and status, role, email where visible, local time, profile fields, and
 * the actions: send a direct message, view their messages, mute, and for yourself, edit your
 * profile or set your status.
 */
import { useState } from 'react';
import type { User } from '@chat/client';
import { errorText } from '../api';
import { t } from '../i18n';
import { dmHash, viewHash } from '../narrow/hash';
import { navigate } from '../app/route';
import { openCompose } from '../compose/state';
import { useAppState, useReg } from '../state/store';
import { Avatar } from '../ui/Avatar';
import { Dialog } from '../ui/Dialog';
import { StatusEmoji } from '../ui/StatusEmoji';
import { relativeTime, useNow, useTimeFormat } from '../ui/time';
import { muteUser } from './actions';
import { closeUserCard, openProfile, openStatus, useUserCardState } from './card';
import { isMutedUser, usePresence, useUserStatus } from './hooks';
import { lastActive, presenceOf } from './presence';
import { localTime, profileFields, roleText, visibleEmail } from './info';
import { StatusDialog } from './StatusDialog';
import '../styles/people.css';
import { nameSlug } from '../ui/slug';

/** Mounted once in the frame: shows whichever card or profile is open. */
export function UserCardHost() {
  const card = useUserCardState();
  return (
    <>
      {card.userId !== null && <CardFor userId={card.userId} anchor={card.anchor} full={card.profile} onSetStatus={openStatus} />}
      {card.status && <StatusDialog onClose={closeUserCard} />}
    </>
  );
}

function CardFor({ userId, anchor, full, onSetStatus }: { userId: number; anchor: HTMLElement | null; full: boolean; onSetStatus: () => void }) {
  const user = useAppState((s) => s.users.get(userId));
  if (!user) return null;
  return (
    <Dialog title={user.full_name} hideTitle anchor={full ? null : anchor} onClose={closeUserCard} className={full ? 'profile-dialog' : 'user-card'} testId="user-card">
      <CardBody user={user} full={full} onSetStatus={onSetStatus} />
    </Dialog>
  );
}

function CardBody({ user, full, onSetStatus }: { user: User; full: boolean; onSetStatus: () => void }) {
  const reg = useReg();
  const users = useAppState((s) => s.users);
  const presence = usePresence(user.user_id);
  const status = useUserStatus(user.user_id);
  const now = useNow();
  const fmt = useTimeFormat();
  const [error, setError] = useState<string | null>(null);
  const isSelf = user.user_id === reg.user_id;
  const muted = isMutedUser(reg, user.user_id);
  const email = visibleEmail(user);
  const time = localTime(user.timezone, fmt.twentyFour);
  const fields = profileFields(reg, user, !full);
  const seen = lastActive(presenceOf(reg.presences, user.user_id, user.email));
  const slug = nameSlug(user.full_name);
  const presenceText = presence === 'active' ? t('people.active_now') : presence === 'idle' ? t('people.idle') : seen ? t('people.last_active', { when: relativeTime(seen, now) }) : presence ? t('people.not_seen') : undefined;
  const sendDm = () => {
    closeUserCard();
    navigate(dmHash([user.user_id], slug));
    openCompose({ type: 'direct', to: [user.user_id] });
  };
  const toggleMute = async () => {
    try {
      await muteUser(user.user_id, !muted);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div className="card-content">
      <div className="card-top">
        <Avatar userId={user.user_id} size={full ? 96 : 64} presence />
        <div className="card-identity">
          <h3 className="card-name">
            {user.full_name}
            {status && <StatusEmoji status={status} />}
          </h3>
          <p className="card-role">{roleText(user)}{!user.is_active && ` · ${t('people.deactivated')}`}</p>
          {presenceText && <p className="card-presence">{presenceText}</p>}
        </div>
      </div>
      {status?.status_text && <p className="card-status"><StatusEmoji status={status} withText /></p>}
      <dl className="card-facts">
        {email && (
          <>
            <dt>{t('people.email')}</dt>
            <dd><a href={`mailto:${email}`}>{email}</a></dd>
          </>
        )}
        {time && (
          <>
            <dt>{t('people.local_time')}</dt>
            <dd>{time}</dd>
          </>
        )}
        {full && (
          <>
            <dt>{t('people.user_id')}</dt>
            <dd>{user.user_id}</dd>
            {user.date_joined && (
              <>
                <dt>{t('people.joined')}</dt>
                <dd>{new Date(user.date_joined).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}</dd>
              </>
            )}
            {user.is_bot && user.bot_owner_id && (
              <>
                <dt>{t('people.bot_owner')}</dt>
                <dd>{users.get(user.bot_owner_id)?.full_name ?? user.bot_owner_id}</dd>
              </>
            )}
          </>
        )}
        {fields.map((f) => (
          <div key={f.id} className="card-field">
            <dt>{f.name}</dt>
            <dd>
              {f.html ? <div className="rendered_markdown" dangerouslySetInnerHTML={{ __html: f.html }} /> : f.href ? <a href={f.href} target="_blank" rel="noopener noreferrer">{f.text}</a> : f.userIds ? f.userIds.map((id) => users.get(id)?.full_name ?? id).join(', ') : f.text}
            </dd>
          </div>
        ))}
      </dl>
      {error && <p className="card-error" role="alert">{t('misc.error', { error })}</p>}
      <div className="card-actions">
        {!isSelf && user.is_active && <button type="button" className="button primary" onClick={sendDm}>{t('people.send_dm')}</button>}
        <a className="button" href={viewHash({ kind: 'narrow', terms: [{ operator: 'sender', operand: `${user.user_id}-${slug}` }] })} onClick={closeUserCard}>{t('people.view_messages')}</a>
        {!full && <button type="button" className="button" onClick={() => openProfile(user.user_id)}>{t('people.view_profile')}</button>}
        {isSelf && <button type="button" className="button" onClick={onSetStatus}>{t('people.set_status')}</button>}
        {isSelf && <a className="button" href="#settings/profile" onClick={closeUserCard}>{t('people.edit_profile')}</a>}
        {!isSelf && !user.is_bot && (
          <button type="button" className="button danger" aria-pressed={muted} onClick={() => void toggleMute()}>{muted ? t('people.unmute') : t('people.mute')}</button>
        )}
      </div>
    </div>
  );
}
