/**
 * Prometheus Alertmanager (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config):
 * one notification carries a group of alerts. Alerts are grouped by a label into topics (`name`,
 * `instance` by default) and each shows a description (`desc`, the `alertname` by default, read
 * from labels then annotations) with a link to its graph; firing and resolved ones go in
 * separate messages.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage } from '../framework';
import { link, topic } from '../format';
import type { Payload } from '../payload';

function field(alert: Payload, key: string): string | undefined {
  return alert.at('labels').get(key).optStr() ?? alert.at('annotations').get(key).optStr();
}

export const alertmanager: Integration = {
  name: 'alertmanager',
  displayName: 'Prometheus Alertmanager',
  allEventTypes: null,
  urlOptions: [
    { key: 'name', label: 'Label whose value names the topic (default: instance)', validator: 'check_string' },
    { key: 'desc', label: 'Label or annotation describing the alert (default: alertname)', validator: 'check_string' },
  ],
  handle(_event, req) {
    const nameKey = req.params.name || 'instance';
    const descKey = req.params.desc || 'alertname';
    const groups = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const alert of req.body.get('alerts').list()) {
      const status = alert.get('status').str();
      if (status !== 'firing' && status !== 'resolved') throw new UnsupportedEvent(status);
      const name = field(alert, nameKey) ?? '(unknown)';
      const desc = field(alert, descKey) ?? `<missing field: ${descKey}>`;
      // The graph's tab rather than its table (Prometheus links to the table).
      const url = alert.get('generatorURL').optStr()?.replace('tab=1', 'tab=0');
      const line = url ? `${desc} (${link('graph', url)})` : desc;
      const group = groups.get(name) ?? { firing: [], resolved: [] };
      group[status].push(line);
      groups.set(name, group);
    }
    const out: WebhookMessage[] = [];
    for (const [name, g] of groups) {
      for (const [lines, head] of [[g.firing, ':alert: **FIRING**'], [g.resolved, ':squared_ok: **Resolved**']] as const) {
        if (lines.length === 0) continue;
        const content = lines.length === 1 ? `${head} ${lines[0]}` : `${head}\n${lines.map((l) => `* ${l}`).join('\n')}`;
        out.push({ topic: topic(name), content });
      }
    }
    return out;
  },
};
