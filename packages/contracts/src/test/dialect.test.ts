import { inClientDialect, speaksFamilyDialect, storedEmojiType, toFamilyDialect } from '../dialect';

describe('client dialect', () => {
  it.each([
    ['ZulipMobile/27.200 (Android 14)', true],
    ['ZulipFlutter/30.0.0 (iOS 17.4)', true],
    ['ZulipTerminal/0.7.0 Linux', true],
    ['ZulipPython/0.9.0 (Debian; 12)', true],
    ['ZulipElectron/5.11.1', true],
    // The Python bindings: `<client name> (<system>; <release>)`, the name being the bot's own
    // (no version), or whatever the bindings' user passed.
    ['ZulipHelloworldBot (Debian GNU/Linux; 12)', true],
    ['ZulipHelloworldBot', true],
    ['MyDeployScript/2.1 (Linux; 6.1.0-18-amd64)', true],
    ['my script (Darwin; 14.4.1)', true],
    ['ZulipPython/0.9.0 (; )', true],
    ['node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', false],
    ['Mozilla/5.0 (X11; Linux x86_64) ZulipElectron/5.11.1', false],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', false],
    ['python-requests/2.31.0', false],
    ['Zulip', false],
    ['curl/8.5.0', false],
  ])('%s speaks the family dialect: %s', (ua, expected) => {
    expect(speaksFamilyDialect(ua)).toBe(expected);
  });

  it('treats a missing User-Agent as the spec dialect', () => {
    expect(speaksFamilyDialect(undefined)).toBe(false);
  });

  it('renames only reaction_type members of the extra emoji', () => {
    const body = JSON.stringify({
      reactions: [
        { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' },
        { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' },
      ],
      status: { reaction_type: 'svc_extra_emoji' },
      content: 'quoting "reaction_type":"svc_extra_emoji" in a message',
    });
    const out = JSON.parse(toFamilyDialect(body));
    expect(out.reactions.map((r: { reaction_type: string }) => r.reaction_type)).toEqual(['zulip_extra_emoji', 'unicode_emoji']);
    expect(out.status.reaction_type).toBe('zulip_extra_emoji');
    expect(out.content).toBe('quoting "reaction_type":"svc_extra_emoji" in a message');
  });

  it('leaves responses for other clients as they are', () => {
    const body = '{"reaction_type":"svc_extra_emoji"}';
    expect(inClientDialect(body, 'curl/8.5.0')).toBe(body);
    expect(inClientDialect(body, 'ZulipMobile/27.200')).toBe('{"reaction_type":"zulip_extra_emoji"}');
  });

  it('stores both names as the spec name', () => {
    expect(storedEmojiType('zulip_extra_emoji')).toBe('svc_extra_emoji');
    expect(storedEmojiType('svc_extra_emoji')).toBe('svc_extra_emoji');
    expect(storedEmojiType('unicode_emoji')).toBe('unicode_emoji');
  });
});
