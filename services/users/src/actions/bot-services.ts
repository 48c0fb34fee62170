/**
 * The service behind an outgoing-webhook bot (bot type 3): where its triggers are posted and in
 * which format. The rows are read by the messaging service's outgoing-webhook worker, which
 * makes the requests (docs/integrations.md, "Outgoing webhooks").
 */
import { recordEvent } from '@chat/bus';
import { BOT_TYPE, errors, type Actor } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { generateApiKey } from '@chat/realm';
import { botServices } from '@chat/wire';
import { botAudience } from './api-keys';

/** The family's payload formats: 1 its own JSON, 2 Slack's outgoing-webhook form. */
export const SERVICE_INTERFACES: readonly number[] = [1, 2];

export interface ServiceInput {
  /** As sent: the family's clients send it JSON-encoded, scripts often plainly. */
  payloadUrl?: string;
  interfaceType?: number;
  /** The service's name; the bot's short name when not given, as in the family. */
  serviceName?: string;
}

/**
 * A payload URL as the family takes it (a JSON-encoded string); a plain URL is taken as it is,
 * since curl users rarely quote it twice.
 */
export function checkPayloadUrl(raw: string | undefined, name: string): string {
  let value: unknown = raw ?? '';
  if (typeof raw === 'string' && raw.trim().startsWith('"')) {
    try {
      value = JSON.parse(raw);
    } catch {
      throw errors.invalidJson(name);
    }
  }
  if (typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw errors.badRequest(`${name} is not a URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw errors.badRequest(`${name} is not a URL`);
  return url.toString();
}

export function checkInterfaceType(value: number | undefined): number {
  const v = value ?? 1;
  if (!SERVICE_INTERFACES.includes(v)) throw errors.badRequest('Invalid interface type');
  return v;
}

/** What creating a bot of `botType` stores as its service, checked before anything is written. */
export function checkNewService(botType: number, shortName: string, input: ServiceInput): { name: string; baseUrl: string; interface: number } | null {
  const iface = checkInterfaceType(input.interfaceType);
  if (botType !== BOT_TYPE.OUTGOING_WEBHOOK) return null;
  return { name: input.serviceName?.trim() || shortName, baseUrl: checkPayloadUrl(input.payloadUrl, 'payload_url'), interface: iface };
}

export async function doAddService(tx: Tx, botId: number, service: { name: string; baseUrl: string; interface: number }) {
  return tx.botService.create({ data: { botId, name: service.name, baseUrl: service.baseUrl, interface: service.interface, token: generateApiKey() } });
}

/** The `services` of each bot among `botIds` that has any, as the bot object lists them. */
export async function servicesByBot(db: Db | Tx, botIds: number[]): Promise<Map<number, Array<Record<string, unknown>>>> {
  const rows = botIds.length ? await db.botService.findMany({ where: { botId: { in: botIds } }, orderBy: { id: 'asc' } }) : [];
  const out = new Map<number, Array<Record<string, unknown>>>();
  for (const row of rows) out.set(row.botId, [...(out.get(row.botId) ?? []), ...botServices([row])]);
  return out;
}

/**
 * PATCH /bots/{id} with `service_payload_url`: the bot's service gets the URL and format (the
 * family changes its one service the same way), and whoever manages the bot hears of it.
 */
export async function doUpdateService(
  tx: Tx,
  actor: Actor,
  bot: { id: number; botOwnerId: number | null; botType: number | null; email: string },
  payloadUrl: string,
  iface: number,
): Promise<void> {
  const rows = await tx.botService.findMany({ where: { botId: bot.id }, orderBy: { id: 'asc' } });
  if (rows.length === 0) {
    // A bot of another type has nothing to call: the family's update finds no service either.
    if (bot.botType !== BOT_TYPE.OUTGOING_WEBHOOK) return;
    await doAddService(tx, bot.id, { name: bot.email.split('-bot@')[0] ?? bot.email, baseUrl: payloadUrl, interface: iface });
  } else {
    await tx.botService.updateMany({ where: { botId: bot.id }, data: { baseUrl: payloadUrl, interface: iface } });
  }
  const services = (await servicesByBot(tx, [bot.id])).get(bot.id) ?? [];
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'realm_bot',
    users: await botAudience(tx, actor.realmId, bot.botOwnerId),
    event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, services } },
  });
}
