/**
 * Desktop notifications for new messages: watches the store for messages newer than any seen
 * (a `message` event raises max_message_id), decides with `decideNotification`, and shows a
 * browser Notification (one per conversation, replaced as more arrive) whose click focuses the
 * tab and opens the message. A fresh snapshot (re-register) never notifies what it brings.
 */
import type { Message, RegisterState } from '@chat/client';
import { t } from '../i18n';
import { channelSlug, dmHash, parseHash, viewHash, type View } from '../narrow/hash';
import { matchesNarrow, dmPeople } from '../state/match';
import { store } from '../state/store';
import { isMutedUser } from '../people/hooks';
import { topicPolicy } from '../sidebar/model';
import { userSetting } from '../ui/settings';
import { decideNotification, notificationBody, type NotifyContext } from './decide';
import { nameSlug } from '../ui/slug';

export function notificationsSupported(): boolean {
  return typeof Notification === 'function';
}

export function permissionGranted(): boolean {
  return notificationsSupported() && Notification.permission === 'granted';
}

function contextFor(reg: RegisterState, view: View): NotifyContext {
  return {
    selfId: reg.user_id,
    settings: (name) => userSetting(reg, name, undefined),
    subscription: (id) => reg.subscriptions.find((s) => s.stream_id === id),
    topicPolicy: (id, topic) => topicPolicy(reg.user_topics, id, topic),
    isMutedUser: (id) => isMutedUser(reg, id),
    isViewing: (m) => {
      if (typeof document === 'undefined' || !document.hasFocus() || document.visibilityState !== 'visible') return false;
      if (view.kind === 'feed') return true;
      if (view.kind !== 'narrow') return false;
      return matchesNarrow(m as Message, view.terms, reg.user_id) === true;
    },
  };
}

function textOf(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  // Images say what they are; spoilers stay hidden.
  doc.querySelectorAll('.spoiler-content').forEach((el) => el.remove());
  doc.querySelectorAll('img[alt]').forEach((img) => img.replaceWith(img.getAttribute('alt') ?? ''));
  return doc.body.textContent ?? '';
}

function titleOf(m: Message, reg: RegisterState, count: number): string {
  const prefix = count > 1 ? t('notify.title_many', { count, name: m.sender_full_name }) : m.sender_full_name;
  if (m.type === 'private') {
    const others = dmPeople(m).filter((id) => id !== reg.user_id && id !== m.sender_id);
    return others.length ? `${prefix} ${t('notify.to_you_and', { count: others.length })}` : `${prefix} ${t('notify.to_you')}`;
  }
  return `${prefix} (#${String(m.display_recipient)} > ${m.subject})`;
}

function linkOf(m: Message, reg: RegisterState): string {
  if (m.type === 'stream') {
    return viewHash({ kind: 'narrow', terms: [{ operator: 'channel', operand: channelSlug(m.stream_id!, String(m.display_recipient)) }, { operator: 'topic', operand: m.subject }, { operator: 'near', operand: String(m.id) }] });
  }
  const others = dmPeople(m).filter((id) => id !== reg.user_id);
  return `${dmHash(others.length ? others : [reg.user_id], nameSlug(m.sender_full_name))}/near/${m.id}`;
}

const open = new Map<string, { n: Notification; count: number }>();

function conversationKey(m: Message): string {
  return m.type === 'private' ? `dm:${dmPeople(m).sort((a, b) => a - b).join(',')}` : `channel:${m.sender_id}:${m.stream_id}:${m.subject.toLowerCase()}`;
}

function show(m: Message, reg: RegisterState): void {
  const key = conversationKey(m);
  const before = open.get(key);
  before?.n.close();
  const count = (before?.count ?? 0) + 1;
  const body = notificationBody(textOf(m.content), m, userSetting(reg, 'pm_content_in_desktop_notifications', true), m.sender_full_name, {
    dm: (name) => t('notify.dm_hidden', { name }),
    attachment: t('notify.attachment'),
  });
  const n = new Notification(titleOf(m, reg, count), { body, icon: m.avatar_url ?? undefined, tag: String(m.id) });
  open.set(key, { n, count });
  n.addEventListener('click', () => {
    n.close();
    window.focus();
    location.hash = linkOf(m, reg);
  });
  n.addEventListener('close', () => {
    if (open.get(key)?.n === n) open.delete(key);
  });
}

let audio: AudioContext | null = null;

/** A short chime (the family plays its notification sound; a tone needs no file). */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch {
    // No audio (autoplay policy or no device): the notification alone does.
  }
}

let started = false;

export function startNotifications(): () => void {
  if (started) return () => undefined;
  started = true;
  let generation = -1;
  let seenMax = 0;
  const unsubscribe = store.subscribe(() => {
    const s = store.get();
    const reg = s.reg;
    if (!reg) return;
    const max = reg.max_message_id ?? 0;
    if (s.generation !== generation) {
      generation = s.generation;
      seenMax = max;
      return;
    }
    if (max <= seenMax) return;
    const from = seenMax;
    seenMax = max;
    const view = parseHash(location.hash);
    const ctx = contextFor(reg, view);
    for (let id = from + 1; id <= max; id++) {
      const m = s.messages.get(id);
      if (!m) continue;
      const decision = decideNotification(m, ctx);
      if (decision.desktop && permissionGranted()) show(m, reg);
      if (decision.sound) chime();
    }
  });
  return () => {
    started = false;
    unsubscribe();
  };
}
