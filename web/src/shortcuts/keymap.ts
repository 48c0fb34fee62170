/**
 * The keyboard shortcuts, the family's main ones, in one table: what each key does and how the
 * help dialog describes it. `actionFor` turns a key press into an action (pure, tested); the
 * runner (run.ts) carries it out.
 */
import type { StringKey } from '../i18n';

export type Action =
  | 'search'
  | 'help'
  | 'escape'
  | 'compose_channel'
  | 'compose_dm'
  | 'reply'
  | 'next_unread_topic'
  | 'next_unread_dm'
  | 'next_message'
  | 'prev_message'
  | 'page_down'
  | 'page_up'
  | 'first_message'
  | 'last_message'
  | 'star'
  | 'edit'
  | 'thumbs_up'
  | 'mute_topic'
  | 'recent'
  | 'inbox'
  | 'filter_channels'
  | 'filter_people';

export interface Binding {
  /** As shown in the help: "j", "Shift + M", "Page Down". */
  keys: string[];
  action: Action;
  help: StringKey;
  group: 'navigation' | 'messages' | 'compose';
}

export const BINDINGS: Binding[] = [
  { keys: ['/'], action: 'search', help: 'shortcuts.search', group: 'navigation' },
  { keys: ['?'], action: 'help', help: 'shortcuts.help', group: 'navigation' },
  { keys: ['Esc'], action: 'escape', help: 'shortcuts.escape', group: 'navigation' },
  { keys: ['n'], action: 'next_unread_topic', help: 'shortcuts.next_unread_topic', group: 'navigation' },
  { keys: ['p'], action: 'next_unread_dm', help: 'shortcuts.next_unread_dm', group: 'navigation' },
  { keys: ['Shift + I'], action: 'inbox', help: 'shortcuts.inbox', group: 'navigation' },
  { keys: ['t'], action: 'recent', help: 'shortcuts.recent', group: 'navigation' },
  { keys: ['q'], action: 'filter_channels', help: 'shortcuts.filter_channels', group: 'navigation' },
  { keys: ['w'], action: 'filter_people', help: 'shortcuts.filter_people', group: 'navigation' },
  { keys: ['j', '↓'], action: 'next_message', help: 'shortcuts.next_message', group: 'messages' },
  { keys: ['k', '↑'], action: 'prev_message', help: 'shortcuts.prev_message', group: 'messages' },
  { keys: ['Page Down'], action: 'page_down', help: 'shortcuts.page_down', group: 'messages' },
  { keys: ['Page Up'], action: 'page_up', help: 'shortcuts.page_up', group: 'messages' },
  { keys: ['Home'], action: 'first_message', help: 'shortcuts.first_message', group: 'messages' },
  { keys: ['End'], action: 'last_message', help: 'shortcuts.last_message', group: 'messages' },
  { keys: ['r', 'Enter'], action: 'reply', help: 'shortcuts.reply', group: 'messages' },
  { keys: ['*'], action: 'star', help: 'shortcuts.star', group: 'messages' },
  { keys: ['e'], action: 'edit', help: 'shortcuts.edit', group: 'messages' },
  { keys: ['+'], action: 'thumbs_up', help: 'shortcuts.thumbs_up', group: 'messages' },
  { keys: ['Shift + M'], action: 'mute_topic', help: 'shortcuts.mute_topic', group: 'messages' },
  { keys: ['c'], action: 'compose_channel', help: 'shortcuts.compose_channel', group: 'compose' },
  { keys: ['x'], action: 'compose_dm', help: 'shortcuts.compose_dm', group: 'compose' },
];

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const PLAIN: Record<string, Action> = {
  '/': 'search',
  '?': 'help',
  Escape: 'escape',
  n: 'next_unread_topic',
  p: 'next_unread_dm',
  t: 'recent',
  q: 'filter_channels',
  w: 'filter_people',
  j: 'next_message',
  ArrowDown: 'next_message',
  k: 'prev_message',
  ArrowUp: 'prev_message',
  PageDown: 'page_down',
  PageUp: 'page_up',
  Home: 'first_message',
  End: 'last_message',
  r: 'reply',
  Enter: 'reply',
  '*': 'star',
  e: 'edit',
  '+': 'thumbs_up',
  c: 'compose_channel',
  x: 'compose_dm',
  I: 'inbox',
  M: 'mute_topic',
};

/** Keys that come with Shift by nature (on most layouts): Shift does not change their meaning. */
const SHIFTED = new Set(['?', '*', '+', 'I', 'M']);

export function actionFor(e: KeyPress): Action | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  const action = PLAIN[e.key];
  if (!action) return undefined;
  // A lone letter with Shift is another key (Shift + R is not r); arrows and Escape ignore it.
  if (e.shiftKey && /^[a-z]$/.test(e.key)) return undefined;
  if (!e.shiftKey && /^[A-Z]$/.test(e.key) && SHIFTED.has(e.key)) return undefined;
  return action;
}
