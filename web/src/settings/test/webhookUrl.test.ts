import { configData, searchIntegrations, webhookUrl, type IncomingIntegration } from '../lib/webhookUrl';

const GITHUB_EVENTS = ['push', 'pull_request', 'issues'];

describe('webhookUrl', () => {
  it('names the integration, the key and the channel by id', () => {
    expect(webhookUrl({ realmUrl: 'https://chat.example.com/', integration: 'github', apiKey: 'k3y', channelId: 12 })).toBe(
      'https://chat.example.com/api/v1/external/github?api_key=k3y&stream=12',
    );
  });

  it('leaves the channel out for a direct message to the owner, and a blank topic out', () => {
    expect(webhookUrl({ realmUrl: 'http://chat.test', integration: 'json', apiKey: 'k', channelId: null, topic: '  ' })).toBe(
      'http://chat.test/api/v1/external/json?api_key=k',
    );
  });

  it('encodes the topic, spaces as %20 and non-ASCII as UTF-8', () => {
    const url = webhookUrl({ realmUrl: 'http://chat.test', integration: 'github', apiKey: 'k', channelId: 3, topic: ' CI & déploiement ' });
    expect(url).toBe('http://chat.test/api/v1/external/github?api_key=k&stream=3&topic=CI%20%26%20d%C3%A9ploiement');
    expect(new URL(url).searchParams.get('topic')).toBe('CI & déploiement');
  });

  it('adds only_events as a JSON list when some, not all, events are chosen', () => {
    const some = webhookUrl({ realmUrl: 'http://chat.test', integration: 'github', apiKey: 'k', onlyEvents: ['push', 'issues', 'push'], allEvents: GITHUB_EVENTS });
    expect(JSON.parse(new URL(some).searchParams.get('only_events')!)).toEqual(['push', 'issues']);
    const all = webhookUrl({ realmUrl: 'http://chat.test', integration: 'github', apiKey: 'k', onlyEvents: GITHUB_EVENTS, allEvents: GITHUB_EVENTS });
    expect(new URL(all).searchParams.has('only_events')).toBe(false);
    const none = webhookUrl({ realmUrl: 'http://chat.test', integration: 'github', apiKey: 'k', onlyEvents: [], allEvents: GITHUB_EVENTS });
    expect(new URL(none).searchParams.has('only_events')).toBe(false);
  });

  it('adds the filled URL options after the others', () => {
    const url = webhookUrl({ realmUrl: 'http://chat.test', integration: 'github', apiKey: 'k', channelId: 1, urlOptions: { branches: 'main,release', other: ' ' } });
    expect(url).toBe('http://chat.test/api/v1/external/github?api_key=k&stream=1&branches=main%2Crelease');
  });
});

describe('searchIntegrations', () => {
  const entry = (name: string, display: string): IncomingIntegration => ({ name, display_name: display, all_event_types: null, config_options: [], url_options: [] });
  const all = [entry('slack_incoming', 'Slack incoming webhook'), entry('github', 'GitHub'), entry('alertmanager', 'Prometheus Alertmanager')];

  it('lists every integration by display name without a query', () => {
    expect(searchIntegrations(all, '').map((i) => i.name)).toEqual(['github', 'alertmanager', 'slack_incoming']);
  });

  it('matches the display name or the URL name, ignoring case', () => {
    expect(searchIntegrations(all, 'PROM').map((i) => i.name)).toEqual(['alertmanager']);
    expect(searchIntegrations(all, 'slack_in').map((i) => i.name)).toEqual(['slack_incoming']);
    expect(searchIntegrations(all, 'zzz')).toEqual([]);
  });
});

describe('configData', () => {
  const options = [{ key: 'secret', label: 'Webhook secret', validator: 'check_string' }];

  it('is the filled options as JSON, or nothing', () => {
    expect(configData(options, { secret: ' s3cret ' })).toBe('{"secret":"s3cret"}');
    expect(configData(options, { secret: '' })).toBeUndefined();
    expect(configData(options, { unknown: 'x' })).toBeUndefined();
  });
});
