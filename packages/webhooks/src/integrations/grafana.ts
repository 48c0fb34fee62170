/**
 * Grafana alerting (https://grafana.com/docs/grafana/latest/alerting/configure-notifications/manage-contact-points/integrations/webhook-notifier/):
 * the webhook contact point's notification, a group of alerts like Alertmanager's with Grafana's
 * links (dashboard, panel, silence) and values; and the legacy alerting's single-rule payload
 * (`ruleName`, `state`, `evalMatches`). The topic is the alert rule's name.
 */
import { UnsupportedEvent, type Integration, type WebhookMessage } from '../framework';
import { link, topic } from '../format';
import type { Payload } from '../payload';

function unifiedAlert(a: Payload): string {
  const labels = a.get('labels');
  const name = labels.get('alertname').optStr() ?? '(unnamed alert)';
  const status = a.get('status').str();
  const icon = status === 'firing' ? ':alert:' : ':squared_ok:';
  const head = `${icon} **${status === 'firing' ? 'Firing' : 'Resolved'}**: ${name}`;
  const lines = [head];
  const summary = a.at('annotations.summary').optStr() ?? a.at('annotations.description').optStr();
  if (summary) lines.push(summary);
  const value = a.get('valueString').optStr();
  if (value) lines.push(`Values: \`${value}\``);
  const shown = labels.entries().filter(([k]) => k !== 'alertname' && k !== '__alert_rule_uid__');
  if (shown.length) lines.push(`Labels: ${shown.map(([k, v]) => `${k}=${v.text()}`).join(', ')}`);
  const links = [
    ['source', a.get('generatorURL').optStr()],
    ['dashboard', a.get('dashboardURL').optStr()],
    ['panel', a.get('panelURL').optStr()],
    ['silence', a.get('silenceURL').optStr()],
  ].filter(([, u]) => u).map(([t, u]) => link(t!, u));
  if (links.length) lines.push(links.join(' · '));
  return lines.join('\n');
}

function legacy(p: Payload): WebhookMessage {
  const state = p.get('state').str();
  const icons: Record<string, string> = { alerting: ':alert:', ok: ':squared_ok:', no_data: ':question:', paused: ':pause:', pending: ':hourglass:' };
  const icon = icons[state];
  if (!icon) throw new UnsupportedEvent(state);
  const rule = p.get('ruleName').str();
  const lines = [`${icon} ${link(p.get('title').optStr() ?? rule, p.get('ruleUrl').optStr())}`];
  const message = p.get('message').optStr();
  if (message) lines.push(`\n${message}`);
  const matches = p.get('evalMatches').optList();
  if (matches.length) lines.push('', ...matches.map((m) => `* **${m.get('metric').str()}**: ${m.get('value').text()}`));
  const image = p.get('imageUrl').optStr();
  if (image) lines.push(`\n[image](${image})`);
  return { topic: topic(rule), content: lines.join('\n') };
}

export const grafana: Integration = {
  name: 'grafana',
  displayName: 'Grafana',
  allEventTypes: ['firing', 'resolved', 'alerting', 'ok', 'no_data', 'paused', 'pending'],
  event: (req) => req.body.get('status').optStr() ?? req.body.get('state').optStr() ?? null,
  handle(_event, req) {
    const p = req.body;
    if (!p.get('alerts').exists) return legacy(p);
    const alerts = p.get('alerts').list();
    const byRule = new Map<string, string[]>();
    for (const a of alerts) {
      const name = a.at('labels.alertname').optStr() ?? p.get('title').optStr() ?? 'Grafana alert';
      byRule.set(name, [...(byRule.get(name) ?? []), unifiedAlert(a)]);
    }
    const extra = p.get('message').optStr();
    return [...byRule].map(([name, parts]) => ({
      topic: topic(name),
      content: parts.join('\n\n') + (extra && alerts.length === 0 ? `\n\n${extra}` : ''),
    }));
  },
};
