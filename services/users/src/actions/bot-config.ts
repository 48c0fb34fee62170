/**
 * An incoming-webhook bot's configuration (docs/integrations.md): POST /bots with bot type 2
 * may name its integration (`service_name`) and that integration's options (`config_data`, a
 * JSON object of strings), e.g. the secret a provider signs its requests with. They are kept in
 * bot_config_data, where the messaging service reads them when the provider posts.
 */
import type { Tx } from '@chat/db';
import { BOT_TYPE, errors } from '@chat/contracts';
import { integrationNamed } from '@chat/webhooks';

export interface WebhookConfigInput {
  serviceName?: string;
  configData?: Record<string, string>;
}

/** The rows to store for a new bot, refused before anything is written when they are wrong. */
export function checkWebhookConfig(botType: number, input: WebhookConfigInput): Record<string, string> | null {
  if (botType !== BOT_TYPE.INCOMING_WEBHOOK) return null;
  const name = input.serviceName?.trim();
  if (!name) {
    if (input.configData && Object.keys(input.configData).length) throw errors.badRequest('config_data requires the integration (service_name)');
    return null;
  }
  const integration = integrationNamed(name);
  if (!integration) throw errors.invalidIntegration(name);
  const allowed = new Set((integration.configOptions ?? []).map((o) => o.key));
  for (const [key, value] of Object.entries(input.configData ?? {})) {
    if (!allowed.has(key)) throw errors.badRequest(`Invalid configuration key '${key}' for the ${integration.displayName} integration`);
    if (value.length > 1000) throw errors.badRequest(`${key} is too long (limit: 1000 characters)`);
  }
  return { integration: name, ...input.configData };
}

export async function doSetBotConfig(tx: Tx, botId: number, config: Record<string, string>): Promise<void> {
  await tx.botConfigData.createMany({ data: Object.entries(config).map(([key, value]) => ({ botId, key, value })) });
}
