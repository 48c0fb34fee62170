import { decideNotification, isNotifiable, notificationBody, TOPIC_POLICY, type NotifyContext, type NotifyMessage, type NotifySubscription } from '../decide';

const defaults: Record<string, unknown> = {
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
  wildcard_mentions_notify: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  notification_sound: 'zulip',
};

function ctx(over: { settings?: Record<string, unknown>; sub?: Partial<NotifySubscription>; policy?: number; muted?: number[]; viewing?: boolean } = {}): NotifyContext {
  const settings = { ...defaults, ...over.settings };
  const sub: NotifySubscription = { is_muted: false, desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null, ...over.sub };
  return {
    selfId: 1,
    settings: (n) => settings[n],
    subscription: (id) => (id === 10 ? sub : undefined),
    topicPolicy: () => over.policy ?? TOPIC_POLICY.inherit,
    isMutedUser: (id) => (over.muted ?? []).includes(id),
    isViewing: () => over.viewing ?? false,
  };
}

const dm: NotifyMessage = { id: 1, type: 'private', sender_id: 2, subject: '', flags: [] };
const plain: NotifyMessage = { id: 2, type: 'stream', sender_id: 2, stream_id: 10, subject: 'lunch', flags: [] };
const mention: NotifyMessage = { ...plain, id: 3, flags: ['mentioned'] };
const wildcard: NotifyMessage = { ...plain, id: 4, flags: ['stream_wildcard_mentioned'] };

describe('decideNotification', () => {
  it('notifies for direct messages and mentions, not for plain channel messages', () => {
    expect(decideNotification(dm, ctx())).toEqual({ desktop: true, sound: true });
    expect(decideNotification(mention, ctx())).toEqual({ desktop: true, sound: true });
    expect(decideNotification(plain, ctx())).toEqual({ desktop: false, sound: false });
    expect(decideNotification({ ...plain, flags: ['has_alert_word'] }, ctx()).desktop).toBe(true);
  });
  it('never for your own, read, or muted senders\' messages, nor what you are viewing', () => {
    expect(decideNotification({ ...dm, sender_id: 1 }, ctx()).desktop).toBe(false);
    expect(decideNotification({ ...dm, flags: ['read'] }, ctx()).desktop).toBe(false);
    expect(decideNotification(dm, ctx({ muted: [2] })).desktop).toBe(false);
    expect(decideNotification(dm, ctx({ viewing: true })).desktop).toBe(false);
  });
  it('follows the personal switches', () => {
    expect(decideNotification(dm, ctx({ settings: { enable_desktop_notifications: false } }))).toEqual({ desktop: false, sound: true });
    expect(decideNotification(dm, ctx({ settings: { notification_sound: 'none' } }))).toEqual({ desktop: true, sound: false });
  });
  it('follows the channel settings, falling back to the personal defaults', () => {
    expect(decideNotification(plain, ctx({ sub: { desktop_notifications: true } })).desktop).toBe(true);
    expect(decideNotification(plain, ctx({ settings: { enable_stream_desktop_notifications: true } })).desktop).toBe(true);
    expect(decideNotification(plain, ctx({ settings: { enable_stream_desktop_notifications: true }, sub: { desktop_notifications: false } })).desktop).toBe(false);
  });
  it('notifies wildcard mentions per wildcard_mentions_notify', () => {
    expect(decideNotification(wildcard, ctx()).desktop).toBe(true);
    expect(decideNotification(wildcard, ctx({ settings: { wildcard_mentions_notify: false } })).desktop).toBe(false);
    expect(decideNotification(wildcard, ctx({ settings: { wildcard_mentions_notify: false }, sub: { wildcard_mentions_notify: true } })).desktop).toBe(true);
  });
  it('mutes muted channels and topics, except direct mentions, followed topics and unmuted topics', () => {
    expect(isNotifiable(wildcard, ctx({ sub: { is_muted: true } }))).toBe(false);
    expect(isNotifiable(wildcard, ctx({ sub: { is_muted: true, wildcard_mentions_notify: true } }))).toBe(true);
    expect(decideNotification(mention, ctx({ sub: { is_muted: true } })).desktop).toBe(true);
    expect(decideNotification(mention, ctx({ policy: TOPIC_POLICY.muted })).desktop).toBe(true);
    expect(decideNotification(wildcard, ctx({ policy: TOPIC_POLICY.muted })).desktop).toBe(false);
    expect(decideNotification(plain, ctx({ policy: TOPIC_POLICY.followed, sub: { is_muted: true } })).desktop).toBe(true);
    expect(decideNotification(plain, ctx({ policy: TOPIC_POLICY.followed, settings: { enable_followed_topic_desktop_notifications: false } })).desktop).toBe(false);
    expect(isNotifiable(plain, ctx({ sub: { is_muted: true }, policy: TOPIC_POLICY.unmuted }))).toBe(true);
  });
});

describe('notificationBody', () => {
  const fallback = { dm: (n: string) => `New direct message from ${n}`, attachment: '(attached file)' };
  it('hides DM content when asked, stands in for empty bodies, trims long ones', () => {
    expect(notificationBody('secret', dm, false, 'Iago', fallback)).toBe('New direct message from Iago');
    expect(notificationBody('  a \n b ', dm, true, 'Iago', fallback)).toBe('a b');
    expect(notificationBody('', plain, true, 'Iago', fallback)).toBe('(attached file)');
    expect(notificationBody('x'.repeat(400), plain, true, 'Iago', fallback)).toHaveLength(300);
  });
});
