/**
 * Uptime Kuma's "Webhook" notification with the preset JSON body
 * (https://github.com/louislam/uptime-kuma/wiki/Notification-Methods): `heartbeat` (its
 * `status`: 0 down, 1 up, 2 pending, 3 maintenance; its `msg`), `monitor` (`name`, `url`) and a
 * summary in `msg`. The settings page's test notification has neither heartbeat nor monitor and
 * is posted as its text. The topic is the monitor's name.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage } from '../framework';
import { topic } from '../format';

const STATES: Record<number, string> = { 0: 'down', 1: 'up', 2: 'pending', 3: 'maintenance' };

export const uptimeKuma: Integration = {
  name: 'uptimekuma',
  displayName: 'Uptime Kuma',
  allEventTypes: ['down', 'up', 'pending', 'maintenance', 'test'],
  event: (req) => {
    const hb = req.body.get('heartbeat');
    if (!hb.exists) return 'test';
    const status = hb.get('status').num();
    return STATES[status] ?? String(status);
  },
  handle(event, req): WebhookMessage[] {
    const p = req.body;
    if (event === 'test') return [{ topic: 'Uptime Kuma', content: p.get('msg').str() }];
    const m = p.get('monitor');
    const name = m.get('name').str();
    // A monitor of a port, a DNS name or a push token has no URL; Uptime Kuma sends "https://".
    const url = m.get('url').optStr();
    const host = m.get('hostname').optStr();
    const port = m.get('port').optNum();
    const where = url && url !== 'https://' && url !== 'http://' ? ` (${url})` : host ? ` (${host}${port ? `:${port}` : ''})` : '';
    const detail = p.at('heartbeat.msg').optStr();
    const said = detail ? `: ${detail}` : '';
    switch (event) {
      case 'down': return [{ topic: topic(name), content: `:red_circle: Monitor **${name}**${where} is **down**${said}.` }];
      case 'up': return [{ topic: topic(name), content: `:green_circle: Monitor **${name}**${where} is **up**${said}.` }];
      case 'pending': return [{ topic: topic(name), content: `:yellow_circle: Monitor **${name}**${where} is **pending**${said}.` }];
      case 'maintenance': return [{ topic: topic(name), content: `:blue_circle: Monitor **${name}**${where} is **under maintenance**.` }];
      default: throw new UnsupportedEvent(event ?? 'unknown');
    }
  },
};
