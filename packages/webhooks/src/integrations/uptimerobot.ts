/**
 * UptimeRobot, through a "Webhook" alert contact whose POST value is the JSON the family's
 * documentation gives (UptimeRobot fills in its `*monitorURL*`-style variables):
 * `{"monitor_url": "*monitorURL*", "monitor_friendly_name": "*monitorFriendlyName*",
 * "alert_type": "*alertType*", "alert_type_friendly_name": "*alertTypeFriendlyName*",
 * "alert_details": "*alertDetails*", "alert_friendly_duration": "*alertFriendlyDuration*"}`.
 * The alert type is the event (`1` down, `2` up, `3` SSL expiry); the topic is the monitor's name.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage } from '../framework';
import { topic } from '../format';

const EVENTS: Record<string, string> = { '1': 'down', '2': 'up', '3': 'ssl_expiry' };

export const uptimerobot: Integration = {
  name: 'uptimerobot',
  displayName: 'UptimeRobot',
  allEventTypes: Object.values(EVENTS),
  event: (req) => {
    const type = req.body.get('alert_type').text();
    return EVENTS[type] ?? type;
  },
  handle(event, req): WebhookMessage[] {
    const p = req.body;
    const name = p.get('monitor_friendly_name').str();
    const url = p.get('monitor_url').str();
    const details = p.get('alert_details').optStr();
    let text: string;
    if (event === 'down') text = `:red_circle: Monitor **${name}** (${url}) is **down**${details ? `: ${details}` : ''}.`;
    else if (event === 'up') {
      const took = p.get('alert_friendly_duration').optStr();
      text = `:green_circle: Monitor **${name}** (${url}) is **back up**${details ? `: ${details}` : ''}.${took ? ` It was down for ${took}.` : ''}`;
    } else if (event === 'ssl_expiry') text = `:warning: The SSL certificate of monitor **${name}** (${url}) expires soon${details ? `: ${details}` : ''}.`;
    else throw new UnsupportedEvent(event ?? 'unknown');
    return [{ topic: topic(name), content: text }];
  },
};
