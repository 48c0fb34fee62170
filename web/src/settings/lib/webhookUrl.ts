/**
 * The incoming-webhook URL a person pastes into a provider's settings
 * (docs/integrations.md): `<realm>/api/v1/external/<name>?api_key=…&stream=…&topic=…`, and the
 * integrations of register's `realm_incoming_webhook_bots` as the picker lists them.
 */

export interface IntegrationOption {
  key: string;
  label: string;
  validator: string;
}

/** One entry of register's `realm_incoming_webhook_bots`. */
export interface IncomingIntegration {
  name: string;
  display_name: string;
  all_event_types: string[] | null;
  config_options: IntegrationOption[];
  url_options: IntegrationOption[];
}

export interface WebhookUrlInput {
  realmUrl: string;
  integration: string;
  apiKey: string;
  /** The channel's id (a rename does not break the URL); none: a direct message to the owner. */
  channelId?: number | null;
  topic?: string;
  /** The events to post; empty or every event of the integration: no filter at all. */
  onlyEvents?: readonly string[];
  allEvents?: readonly string[] | null;
  /** The integration's URL options (e.g. GitHub's `branches`), blank ones left out. */
  urlOptions?: Readonly<Record<string, string>>;
}

export function webhookUrl(input: WebhookUrlInput): string {
  const params: Array<[string, string]> = [['api_key', input.apiKey]];
  if (input.channelId != null) params.push(['stream', String(input.channelId)]);
  const topic = input.topic?.trim();
  if (topic) params.push(['topic', topic]);
  const events = [...new Set(input.onlyEvents ?? [])];
  const everything = !!input.allEvents && input.allEvents.every((e) => events.includes(e));
  if (events.length > 0 && !everything) params.push(['only_events', JSON.stringify(events)]);
  for (const [key, value] of Object.entries(input.urlOptions ?? {})) {
    if (value.trim()) params.push([key, value.trim()]);
  }
  // encodeURIComponent rather than URLSearchParams: a space is %20, never a '+' a provider may keep.
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${input.realmUrl.replace(/\/+$/, '')}/api/v1/external/${encodeURIComponent(input.integration)}?${query}`;
}

/** The integrations whose display name or URL name contains the query, by display name. */
export function searchIntegrations(all: readonly IncomingIntegration[], query: string): IncomingIntegration[] {
  const q = query.trim().toLowerCase();
  return all
    .filter((i) => !q || i.display_name.toLowerCase().includes(q) || i.name.toLowerCase().includes(q))
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
}

/** POST /bots' `config_data`: the filled options as a JSON object, or nothing when none is. */
export function configData(options: readonly IntegrationOption[], values: Readonly<Record<string, string>>): string | undefined {
  const filled = options.filter((o) => values[o.key]?.trim()).map((o) => [o.key, values[o.key]!.trim()] as const);
  return filled.length ? JSON.stringify(Object.fromEntries(filled)) : undefined;
}
