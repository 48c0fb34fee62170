import { emailTrigger, pushTrigger, type RecipientFacts } from '../triggers';

/** The rules are one function for both media; each reads its own settings. */
describe('missed-message email triggers', () => {
  const base: RecipientFacts = {
    userId: 1,
    flags: [],
    settings: {},
    isDirect: false,
    subscription: { pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null, isMuted: false },
    topicPolicy: null,
  };
  const trigger = (over: Partial<RecipientFacts>) => emailTrigger({ ...base, ...over });

  it('mails direct messages and mentions unless offline email is off', () => {
    expect(trigger({ isDirect: true, subscription: null })).toBe('direct_message');
    expect(trigger({ isDirect: true, subscription: null, flags: ['read'] })).toBeNull();
    expect(trigger({ isDirect: true, subscription: null, settings: { enable_offline_email_notifications: false } })).toBeNull();
    expect(trigger({ flags: ['mentioned'] })).toBe('mentioned');
    expect(trigger({ flags: ['mentioned'], settings: { enable_offline_email_notifications: false } })).toBeNull();
    // The push setting says nothing about email.
    expect(trigger({ flags: ['mentioned'], settings: { enable_offline_push_notifications: false } })).toBe('mentioned');
  });

  it('mails wildcard mentions as the channel, the setting or the followed topic say', () => {
    expect(trigger({ flags: ['stream_wildcard_mentioned'] })).toBe('stream_wildcard_mentioned');
    expect(trigger({ flags: ['topic_wildcard_mentioned'] })).toBe('topic_wildcard_mentioned');
    expect(trigger({ flags: ['stream_wildcard_mentioned'], settings: { wildcard_mentions_notify: false } })).toBeNull();
    const sub = { ...base.subscription!, wildcardMentionsNotify: true };
    expect(trigger({ flags: ['stream_wildcard_mentioned'], settings: { wildcard_mentions_notify: false }, subscription: sub })).toBe('stream_wildcard_mentioned');
    expect(trigger({ flags: ['stream_wildcard_mentioned'], subscription: { ...base.subscription!, isMuted: true } })).toBeNull();
  });

  it('mails followed topics and channels with email notifications on', () => {
    expect(trigger({ topicPolicy: 'followed' })).toBe('followed_topic_email_notify');
    expect(trigger({ topicPolicy: 'followed', settings: { enable_followed_topic_email_notifications: false } })).toBeNull();
    expect(trigger({})).toBeNull();
    expect(trigger({ settings: { enable_stream_email_notifications: true } })).toBe('stream_email_notify');
    const emailOn = { ...base.subscription!, emailNotifications: true };
    expect(trigger({ subscription: emailOn })).toBe('stream_email_notify');
    // The channel's own value wins over the default.
    expect(trigger({ subscription: { ...base.subscription!, emailNotifications: false }, settings: { enable_stream_email_notifications: true } })).toBeNull();
    expect(trigger({ subscription: emailOn, topicPolicy: 'muted' })).toBeNull();
    expect(trigger({ subscription: { ...emailOn, isMuted: true } })).toBeNull();
    expect(trigger({ subscription: { ...emailOn, isMuted: true }, topicPolicy: 'unmuted' })).toBe('stream_email_notify');
    // A channel's push setting does not mail, nor its email setting push.
    expect(trigger({ subscription: { ...base.subscription!, pushNotifications: true } })).toBeNull();
    expect(pushTrigger({ ...base, subscription: emailOn })).toBeNull();
    expect(trigger({ subscription: null })).toBeNull();
  });
});
