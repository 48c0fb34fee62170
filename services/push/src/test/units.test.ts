import { randomBytes } from 'node:crypto';
import { decodeStandardBase64, tokenIdFromBytes, tokenIdOfToken, tokenIdToBase64 } from '../lib/codec';
import { encryptPayload, isSupportedPushKey } from '../lib/crypto';
import { realmUrl } from '../lib/realms';
import { pushTrigger, type RecipientFacts } from '@chat/notify';
import { notificationContent } from '../lib/content';
import { clientDecrypt, newPushKey, tokenIdOf } from './support';

describe('payload encryption (cryptosystem 0x31)', () => {
  it('opens with the device key only, and detects tampering', () => {
    const { keyBytes } = newPushKey();
    const data = encryptPayload(keyBytes, { type: 'test', user_id: 10 });
    expect(clientDecrypt(keyBytes, data)).toEqual({ type: 'test', user_id: 10 });
    expect(clientDecrypt(newPushKey().keyBytes, data)).toBeNull();
    const tampered = Buffer.from(data, 'base64');
    tampered[tampered.length - 1] ^= 1;
    expect(clientDecrypt(keyBytes, tampered.toString('base64'))).toBeNull();
  });

  it('uses a fresh nonce for every payload', () => {
    const { keyBytes } = newPushKey();
    const a = Buffer.from(encryptPayload(keyBytes, { n: 1 }), 'base64');
    const b = Buffer.from(encryptPayload(keyBytes, { n: 1 }), 'base64');
    expect(a.subarray(0, 24).equals(b.subarray(0, 24))).toBe(false);
    // nonce (24) + Poly1305 tag (16) + the 7 bytes of {"n":1}
    expect(a.length).toBe(24 + 16 + 7);
  });

  it('accepts only 0x31 followed by 32 key bytes', () => {
    expect(isSupportedPushKey(newPushKey().keyBytes)).toBe(true);
    expect(isSupportedPushKey(Buffer.concat([Buffer.from([0x30]), randomBytes(32)]))).toBe(false);
    expect(isSupportedPushKey(Buffer.concat([Buffer.from([0x31]), randomBytes(31)]))).toBe(false);
    expect(() => encryptPayload(randomBytes(33).fill(0), {})).toThrow('unsupported push key');
  });
});

describe('codec', () => {
  it('reads only standard, padded Base64', () => {
    expect(decodeStandardBase64('hGsEWGmyyfI=')?.length).toBe(8);
    for (const bad of ['', 'hGsEWGmyyfI', 'hGs-WGmyyfI=', 'hGs_WGmyyfI=', 'hGsE WGmyyfI=', 'a===']) {
      expect(decodeStandardBase64(bad)).toBeNull();
    }
  });

  it('round-trips token ids through their signed 64-bit form', () => {
    for (const b64 of ['hGsEWGmyyfI=', 'AAAAAAAAAAE=', '//////////8=', 'gAAAAAAAAAA=']) {
      expect(tokenIdToBase64(tokenIdFromBytes(decodeStandardBase64(b64)!))).toBe(b64);
    }
    expect(tokenIdFromBytes(decodeStandardBase64('//////////8=')!)).toBe(-1n);
    expect(tokenIdToBase64(tokenIdOfToken('c0ffee'))).toBe(tokenIdOf('c0ffee'));
  });

  it('derives realm URLs the way the gateway maps hosts', () => {
    const address = { scheme: 'https' as const, host: 'chat.example.com:8443', rootRealm: '' };
    expect(realmUrl(address, '')).toBe('https://chat.example.com:8443');
    expect(realmUrl(address, 'lear')).toBe('https://lear.chat.example.com:8443');
    expect(realmUrl({ ...address, rootRealm: 'lear' }, 'lear')).toBe('https://chat.example.com:8443');
  });
});

describe('who is notified', () => {
  const base: RecipientFacts = {
    userId: 1,
    flags: [],
    settings: {},
    isDirect: false,
    subscription: { pushNotifications: null, wildcardMentionsNotify: null, isMuted: false },
    topicPolicy: null,
  };
  const trigger = (over: Partial<RecipientFacts>) => pushTrigger({ ...base, ...over });

  it('follows the rules of the API family', () => {
    expect(trigger({ isDirect: true, subscription: null })).toBe('direct_message');
    expect(trigger({ isDirect: true, subscription: null, flags: ['read'] })).toBeNull();
    expect(trigger({ flags: ['mentioned'] })).toBe('mentioned');
    expect(trigger({ flags: ['mentioned'], settings: { enable_offline_push_notifications: false } })).toBeNull();
    expect(trigger({})).toBeNull();
    expect(trigger({ settings: { enable_stream_push_notifications: true } })).toBe('stream_push_notify');
    expect(trigger({ subscription: { ...base.subscription!, pushNotifications: true } })).toBe('stream_push_notify');
    expect(trigger({ subscription: { ...base.subscription!, pushNotifications: false }, settings: { enable_stream_push_notifications: true } })).toBeNull();
  });

  it('treats followed and muted topics and muted channels', () => {
    expect(trigger({ topicPolicy: 'followed' })).toBe('followed_topic_push_notify');
    expect(trigger({ topicPolicy: 'followed', settings: { enable_followed_topic_push_notifications: false } })).toBeNull();
    const pushOn = { ...base.subscription!, pushNotifications: true };
    expect(trigger({ subscription: pushOn, topicPolicy: 'muted' })).toBeNull();
    expect(trigger({ subscription: { ...pushOn, isMuted: true } })).toBeNull();
    expect(trigger({ subscription: { ...pushOn, isMuted: true }, topicPolicy: 'unmuted' })).toBe('stream_push_notify');
    // A personal mention gets through any mute.
    expect(trigger({ subscription: { ...pushOn, isMuted: true }, flags: ['mentioned'] })).toBe('mentioned');
  });

  it('lets wildcard mentions notify per channel, per setting, or per followed topic', () => {
    expect(trigger({ flags: ['stream_wildcard_mentioned'] })).toBe('stream_wildcard_mentioned');
    expect(trigger({ flags: ['topic_wildcard_mentioned'] })).toBe('topic_wildcard_mentioned');
    expect(trigger({ flags: ['stream_wildcard_mentioned'], settings: { wildcard_mentions_notify: false } })).toBeNull();
    expect(
      trigger({ flags: ['stream_wildcard_mentioned'], settings: { wildcard_mentions_notify: false }, subscription: { ...base.subscription!, wildcardMentionsNotify: true } }),
    ).toBe('stream_wildcard_mentioned');
    expect(
      trigger({ flags: ['stream_wildcard_mentioned'], topicPolicy: 'followed', settings: { enable_followed_topic_wildcard_mentions_notify: false, enable_followed_topic_push_notifications: false } }),
    ).toBeNull();
  });

  it('keeps notification text short and plain', () => {
    expect(notificationContent('  hello\n\nworld ')).toBe('hello world');
    const long = notificationContent('x'.repeat(500));
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });
});
