/**
 * Carries out the keyboard shortcuts: one listener on the window, which leaves alone keys typed
 * into fields, keys a focused control or open dialog has handled, and Enter or arrows on a
 * focused link or button (those are the control's own).
 */
import type { Message } from '@chat/client';
import { channelHash, dmHash, leadingId, type View } from '../narrow/hash';
import { currentView, goHome, navigate } from '../app/route';
import { closeCompose, getCompose, openCompose } from '../compose/state';
import { reply, THUMBS_UP, toggleReaction, toggleStar } from '../feed/actions';
import { selectBy, selectedMessageId, selectFirst, selectLast, selectNext, selectPrev } from '../feed/selection';
import { setFeedView } from '../feed/view-state';
import { focusSearch } from '../search/SearchBox';
import { setTopicPolicy } from '../sidebar/actions';
import { channelSections, nextUnreadDm, nextUnreadTopic, POLICY, topicPolicy, type ChannelFolder } from '../sidebar/model';
import { locationOf } from '../sidebar/Sidebar';
import { openChannelFilter } from '../sidebar/ChannelList';
import { store } from '../state/store';
import { anyLayerOpen, isTypingTarget } from '../ui/focus';
import { userSetting } from '../ui/settings';
import { actionFor, type Action } from './keymap';
import { setShortcutsHelp } from './state';
import { nameSlug } from '../ui/slug';

const PAGE = 10;

function selectedMessage(): Message | undefined {
  const id = selectedMessageId();
  return id === null ? undefined : store.get().messages.get(id);
}

function composeTargetFor(view: View) {
  const reg = store.get().reg!;
  const where = locationOf(view, reg.user_id);
  if (where.streamId !== undefined) return { type: 'stream' as const, streamId: where.streamId, topic: where.topic ?? '' };
  return null;
}

function focusField(selector: string): boolean {
  const el = document.querySelector<HTMLElement>(selector);
  if (!el) return false;
  el.focus();
  return true;
}

/** Carries out an action; false when it did not apply (the key then does what it normally does). */
export function runAction(action: Action): boolean {
  const s = store.get();
  const reg = s.reg;
  if (!reg) return false;
  const view = currentView();
  switch (action) {
    case 'search':
      return focusSearch();
    case 'help':
      setShortcutsHelp(true);
      return true;
    case 'escape':
      if (getCompose().open) {
        closeCompose();
        return true;
      }
      // The person may have turned this off (web_escape_navigates_to_home_view).
      if (view.kind === 'narrow' && userSetting(reg, 'web_escape_navigates_to_home_view', true)) {
        goHome();
        return true;
      }
      return false;
    case 'compose_channel': {
      const target = composeTargetFor(view);
      // Channel 0: none chosen yet (the box asks for one).
      openCompose(target ?? { type: 'stream', streamId: 0, topic: '' });
      return true;
    }
    case 'compose_dm': {
      const where = locationOf(view, reg.user_id);
      openCompose({ type: 'direct', to: where.dmKey ? where.dmKey.split(',').filter(Boolean).map(Number) : [] });
      return true;
    }
    case 'reply': {
      const m = selectedMessage();
      if (!m) return false;
      reply(m);
      return true;
    }
    case 'star': {
      const m = selectedMessage();
      if (!m) return false;
      void toggleStar(m);
      return true;
    }
    case 'thumbs_up': {
      const m = selectedMessage();
      if (!m) return false;
      void toggleReaction(m, THUMBS_UP);
      return true;
    }
    case 'edit': {
      const m = selectedMessage();
      if (!m || m.sender_id !== reg.user_id) return false;
      setFeedView({ editingId: m.id });
      return true;
    }
    case 'next_message':
      return view.kind === 'narrow' || view.kind === 'feed' ? (selectNext(), true) : false;
    case 'prev_message':
      return view.kind === 'narrow' || view.kind === 'feed' ? (selectPrev(), true) : false;
    case 'page_down':
      return view.kind === 'narrow' || view.kind === 'feed' ? (selectBy(PAGE), true) : false;
    case 'page_up':
      return view.kind === 'narrow' || view.kind === 'feed' ? (selectBy(-PAGE), true) : false;
    case 'first_message':
      return view.kind === 'narrow' || view.kind === 'feed' ? (selectFirst(), true) : false;
    case 'last_message':
      return view.kind === 'narrow' || view.kind === 'feed' ? (selectLast(), true) : false;
    case 'next_unread_topic': {
      const order = channelSections(reg.subscriptions, reg.channel_folders as ChannelFolder[] | undefined).flatMap((x) => x.channels.map((c) => c.stream_id));
      const next = nextUnreadTopic(reg, order, locationOf(view, reg.user_id));
      if (!next) return false;
      const name = reg.subscriptions.find((x) => x.stream_id === next.streamId)?.name ?? String(next.streamId);
      navigate(channelHash(next.streamId, name, next.topic));
      return true;
    }
    case 'next_unread_dm': {
      const next = nextUnreadDm(reg, locationOf(view, reg.user_id).dmKey);
      if (!next) return false;
      const ids = next.userIds.length ? next.userIds : [reg.user_id];
      navigate(dmHash(ids, nameSlug(s.users.get(ids[0]!)?.full_name ?? '')));
      return true;
    }
    case 'mute_topic': {
      const m = selectedMessage();
      const where = locationOf(view, reg.user_id);
      const streamId = m?.type === 'stream' ? m.stream_id : where.streamId;
      const topic = m?.type === 'stream' ? m.subject : where.topic;
      if (streamId === undefined || topic === undefined || Number.isNaN(leadingId(String(streamId)))) return false;
      const muted = topicPolicy(reg.user_topics, streamId, topic) === POLICY.muted;
      void setTopicPolicy(streamId, topic, muted ? POLICY.inherit : POLICY.muted);
      return true;
    }
    case 'recent':
      navigate('#recent');
      return true;
    case 'inbox':
      navigate('#inbox');
      return true;
    case 'filter_channels':
      return openChannelFilter();
    case 'filter_people':
      return focusField('[data-testid="buddy-filter"]');
  }
}

const OWN_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End']);

function isControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && !!target.closest('a[href], button, select, summary, [role="option"], [role^="menuitem"], [role="tab"], [role="slider"]');
}

export function onKeyDown(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.isComposing) return;
  if (anyLayerOpen()) return;
  if (isTypingTarget(e.target)) return;
  if (OWN_KEYS.has(e.key) && isControl(e.target)) return;
  const action = actionFor(e);
  if (!action) return;
  // Inside the compose box (on its buttons, say) a letter must not reply elsewhere or open
  // another box: that would carry the text being written to another conversation.
  if (action !== 'escape' && e.target instanceof Element && e.target.closest('.compose')) return;
  if (runAction(action)) e.preventDefault();
}

let installed = false;

export function installShortcuts(): () => void {
  if (installed) return () => undefined;
  installed = true;
  window.addEventListener('keydown', onKeyDown);
  return () => {
    installed = false;
    window.removeEventListener('keydown', onKeyDown);
  };
}
