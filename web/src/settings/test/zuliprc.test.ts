import { zuliprcFileName, zuliprcText } from '../lib/zuliprc';

describe('zuliprc', () => {
  it('writes the [api] section with a trailing newline', () => {
    expect(zuliprcText({ email: 'iago@example.com', apiKey: 'abc123', site: 'http://127.0.0.1:9991' })).toBe('[api]\nemail=iago@example.com\nkey=abc123\nsite=http://127.0.0.1:9991\n');
  });

  it('drops a trailing slash from the site and adds an outgoing bot token', () => {
    expect(zuliprcText({ email: 'b-bot@x.test', apiKey: 'k', site: 'https://x.test/', token: 'tok' })).toBe('[api]\nemail=b-bot@x.test\nkey=k\nsite=https://x.test\ntoken=tok\n');
  });

  it('names the file after the bot, or zuliprc for the person', () => {
    expect(zuliprcFileName()).toBe('zuliprc');
    expect(zuliprcFileName('weather-bot@x.test')).toBe('weather-zuliprc');
  });
});
