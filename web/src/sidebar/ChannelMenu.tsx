/**
 * The menus of a channel and of a topic in the sidebar: mute, pin, color, mark as read,
 * unsubscribe and the channel's settings; mute, unmute, follow, mark as read, resolve and copy
 * its link for a topic.
 */
import { useState } from 'react';
import type { Subscription } from '@chat/client';
import { t } from '../i18n';
import { api } from '../api';
import { channelHash, channelSlug, type NarrowTerm } from '../narrow/hash';
import { toggledResolved } from '../feed/permissions';
import { canResolveTopic } from '../state/permissions';
import { RESOLVED_PREFIX } from '../state/selectors';
import { useAppState, useReg } from '../state/store';
import { Dialog } from '../ui/Dialog';
import { MenuButton, type MenuItem } from '../ui/Menu';
import { attempt, markNarrowRead, setSubscriptionProperty, setTopicPolicy, unsubscribe } from './actions';
import { POLICY } from './model';
import { showSidebarError } from './errors';
import { Icon } from '../ui/Icon';

/** The family's channel color palette. */
export const PALETTE = ['#a47462', '#c2726a', '#e4523d', '#e7664d', '#ee7e4a', '#f4ae55', '#76ce90', '#53a063', '#94c849', '#bfd56f', '#fae589', '#f5ce6e', '#a6dcbf', '#addfe5', '#a6c7e5', '#4f8de4', '#95a5fd', '#b0a5fd', '#c2c2c2', '#c8bebf', '#c6a8ad', '#e79ab5', '#bd86e5', '#9987e1'];

export function ChannelMenu({ sub }: { sub: Subscription }) {
  const [colorOpen, setColorOpen] = useState(false);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const channelTerms: NarrowTerm[] = [{ operator: 'channel', operand: channelSlug(sub.stream_id, sub.name) }];
  const run = (action: () => Promise<unknown>) => void attempt(action, showSidebarError);
  const items: MenuItem[] = [
    { label: sub.pin_to_top ? t('nav.channel.unpin') : t('nav.channel.pin'), onSelect: () => run(() => setSubscriptionProperty(sub.stream_id, 'pin_to_top', !sub.pin_to_top)) },
    { label: sub.is_muted ? t('nav.channel.unmute') : t('nav.channel.mute'), onSelect: () => run(() => setSubscriptionProperty(sub.stream_id, 'is_muted', !sub.is_muted)) },
    { label: t('nav.channel.mark_read'), onSelect: () => run(() => markNarrowRead(channelTerms)) },
    { label: t('nav.channel.color'), onSelect: () => setColorOpen(true) },
    { kind: 'link', label: t('nav.channel.settings'), href: '#organization/channels' },
    { kind: 'separator' },
    { label: t('nav.channel.unsubscribe'), danger: true, onSelect: () => setConfirmLeave(true) },
  ];
  return (
    <>
      <MenuButton label={t('nav.channel.menu', { name: sub.name })} items={items} className="row-menu" align="end" testId={`channel-menu-${sub.stream_id}`}>
        <Icon name="more" size={14} />
      </MenuButton>
      {colorOpen && <ColorDialog sub={sub} onClose={() => setColorOpen(false)} />}
      {confirmLeave && (
        <Dialog
          title={t('nav.channel.unsubscribe_title', { name: sub.name })}
          onClose={() => setConfirmLeave(false)}
          footer={
            <>
              <button type="button" className="button" onClick={() => setConfirmLeave(false)}>{t('misc.cancel')}</button>
              <button type="button" className="button primary" onClick={() => { setConfirmLeave(false); run(() => unsubscribe(sub.name)); }}>{t('nav.channel.unsubscribe')}</button>
            </>
          }
        >
          <p>{sub.invite_only ? t('nav.channel.unsubscribe_private') : t('nav.channel.unsubscribe_public')}</p>
        </Dialog>
      )}
    </>
  );
}

function ColorDialog({ sub, onClose }: { sub: Subscription; onClose: () => void }) {
  const [value, setValue] = useState(sub.color);
  const save = (color: string) => {
    onClose();
    void attempt(() => setSubscriptionProperty(sub.stream_id, 'color', color), showSidebarError);
  };
  return (
    <Dialog title={t('nav.channel.color_title', { name: sub.name })} onClose={onClose}>
      <div className="color-palette" role="group" aria-label={t('nav.channel.color')}>
        {PALETTE.map((c) => (
          <button key={c} type="button" className={`color-swatch${c === sub.color ? ' current' : ''}`} style={{ background: c }} aria-label={c} aria-pressed={c === sub.color} onClick={() => save(c)} />
        ))}
      </div>
      <label className="color-custom">
        {t('nav.channel.color_custom')} <input type="color" value={value} onChange={(e) => setValue(e.target.value)} />
        <button type="button" className="button" onClick={() => save(value)}>{t('misc.save')}</button>
      </label>
    </Dialog>
  );
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without clipboard access (an insecure origin), the link is shown to copy by hand.
    window.prompt(t('nav.topic.copy_link'), text);
  }
}

export function TopicMenu({ streamId, channelName, topic, policy, channelMuted }: { streamId: number; channelName: string; topic: string; policy: number; channelMuted: boolean }) {
  const reg = useReg();
  const lastId = useAppState((s) => s.topics[streamId]?.topics.find((x) => x.name.toLowerCase() === topic.toLowerCase())?.max_id);
  const run = (action: () => Promise<unknown>) => void attempt(action, showSidebarError);
  const items: MenuItem[] = [];
  if (policy === POLICY.followed) items.push({ label: t('nav.topic.unfollow'), onSelect: () => run(() => setTopicPolicy(streamId, topic, POLICY.inherit)) });
  else items.push({ label: t('nav.topic.follow'), onSelect: () => run(() => setTopicPolicy(streamId, topic, POLICY.followed)) });
  if (channelMuted) {
    if (policy === POLICY.unmuted) items.push({ label: t('nav.topic.mute'), onSelect: () => run(() => setTopicPolicy(streamId, topic, POLICY.inherit)) });
    else items.push({ label: t('nav.topic.unmute'), onSelect: () => run(() => setTopicPolicy(streamId, topic, POLICY.unmuted)) });
  } else if (policy === POLICY.muted) items.push({ label: t('nav.topic.unmute'), onSelect: () => run(() => setTopicPolicy(streamId, topic, POLICY.inherit)) });
  else items.push({ label: t('nav.topic.mute'), onSelect: () => run(() => setTopicPolicy(streamId, topic, POLICY.muted)) });
  items.push({ label: t('nav.topic.mark_read'), onSelect: () => run(() => markNarrowRead([{ operator: 'channel', operand: channelSlug(streamId, channelName) }, { operator: 'topic', operand: topic }])) });
  // Resolving renames the whole topic through one of its messages (its newest known one).
  if (lastId !== undefined && canResolveTopic(reg, streamId)) {
    items.push({
      label: topic.startsWith(RESOLVED_PREFIX) ? t('nav.topic.unresolve') : t('nav.topic.resolve'),
      onSelect: () => run(() => api.updateMessage(lastId, { topic: toggledResolved(topic), propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true })),
    });
  }
  items.push({ label: t('nav.topic.copy_link'), onSelect: () => void copyText(new URL(channelHash(streamId, channelName, topic), location.href).href) });
  return (
    <MenuButton label={t('nav.topic.menu', { name: topic })} items={items} className="row-menu" align="end">
      <Icon name="more" size={14} />
    </MenuButton>
  );
}
