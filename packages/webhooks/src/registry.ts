/**
 * Every integration this server offers, by the name in its URL. Adding one: a file in
 * integrations/, a line here, its fixtures and cases in e2e/webhooks/ (docs/integrations.md).
 */
import type { ConfigOption, Integration } from './framework';
import { alertmanager } from './integrations/alertmanager';
import { bitbucket2 } from './integrations/bitbucket';
import { circleci } from './integrations/circleci';
import { github } from './integrations/github';
import { gitlab } from './integrations/gitlab';
import { grafana } from './integrations/grafana';
import { jenkins } from './integrations/jenkins';
import { jira } from './integrations/jira';
import { json } from './integrations/json';
import { pagerduty } from './integrations/pagerduty';
import { sentry } from './integrations/sentry';
import { slackIncoming } from './integrations/slack-incoming';
import { ifttt, zapier } from './integrations/text-posts';
import { uptimeKuma } from './integrations/uptime-kuma';
import { uptimerobot } from './integrations/uptimerobot';

export const INTEGRATIONS: readonly Integration[] = [
  alertmanager, bitbucket2, circleci, github, gitlab, grafana, ifttt, jenkins, jira, json, pagerduty, sentry, slackIncoming, uptimeKuma, uptimerobot, zapier,
];

const byName = new Map(INTEGRATIONS.map((i) => [i.name, i]));

export function integrationNamed(name: string): Integration | undefined {
  return byName.get(name);
}

/** One entry of `realm_incoming_webhook_bots` in POST /register, as the family shapes it. */
export interface IncomingWebhookBotEntry {
  name: string;
  display_name: string;
  all_event_types: string[] | null;
  config_options: ConfigOption[];
  url_options: ConfigOption[];
}

/** `realm_incoming_webhook_bots`: the integrations with their options, sorted by name. */
export function incomingWebhookBots(): IncomingWebhookBotEntry[] {
  return [...INTEGRATIONS]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((i) => ({
      name: i.name,
      display_name: i.displayName,
      all_event_types: i.allEventTypes ? [...i.allEventTypes] : null,
      config_options: [...(i.configOptions ?? [])],
      url_options: [...(i.urlOptions ?? [])],
    }));
}
