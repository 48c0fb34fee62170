/**
 * POST /messages/{message_id}/report: the notification bot posts the report into the realm's
 * moderation request channel, worded as the family's server words it, in the topic
 * "<reported sender> moderation".
 */
import { errors, LIMITS } from '@chat/contracts';
import type { Message, Tx } from '@chat/db';
import { realmPolicies } from '@chat/realm';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { normalizeContent, truncate } from '../lib/text';
import { accessMessage } from './message-access';
import { notificationBot, postNotice, silentMention } from './move-notices';
import { messageLinkSyntax, unusedFence } from './reminder-content';

/** The family's server_report_message_types, with the words the report shows for each. */
export const REPORT_REASONS: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Room left for the reported message once the description and the template text fit. */
const SNIPPET_LENGTH = LIMITS.maxMessageLength - MAX_REPORT_DESCRIPTION_LENGTH - 500;

export function checkReport(reportType: string, description: string): void {
  if (!(reportType in REPORT_REASONS)) throw errors.invalidArgument('report_type', 'Invalid report_type');
  if ([...description].length > MAX_REPORT_DESCRIPTION_LENGTH) {
    throw errors.invalidArgument('description', `description is too long (limit: ${MAX_REPORT_DESCRIPTION_LENGTH} characters)`);
  }
  if (reportType === 'other' && description === '') throw errors.badRequest('An explanation is required.');
}

/** `<time:…>` with second precision and an explicit UTC offset, as the family writes times. */
const globalTime = (d: Date) => `<time:${d.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

export async function doReportMessage(services: Services, actor: LoadedActor, messageId: number, reportType: string, description: string): Promise<void> {
  checkReport(reportType, description);
  await services.db.$transaction(async (tx) => {
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
    const channelId = realmPolicies(realm.settings).moderation_request_channel_id;
    const channel = channelId > 0 ? await tx.stream.findFirst({ where: { id: channelId, realmId: actor.realmId, isArchived: false } }) : null;
    if (!channel) throw errors.badRequest('Moderation request channel must be specified to enable message reporting.');
    const { message } = await accessMessage(tx, actor, messageId);
    const reported = await tx.user.findUniqueOrThrow({ where: { id: message.senderId } });
    const raw = await reportContent(tx, actor, message, { fullName: reported.fullName, userId: reported.id }, reportType, description);
    const topic = channel.topicsPolicy === 'empty_topic_only' ? '' : `${reported.fullName} moderation`;
    const bot = await notificationBot(tx, actor);
    await postNotice(tx, bot, bot, channel, topic, normalizeContent(raw));
  });
}

type Person = { fullName: string; userId: number };

async function reportContent(tx: Tx, actor: LoadedActor, message: Message, reported: Person, reportType: string, description: string): Promise<string> {
  const reporter = silentMention(actor);
  const sender = silentMention(reported);
  const when = globalTime(message.dateSent);
  let header: string;
  let original: string;
  if (message.streamId !== null) {
    const stream = await tx.stream.findUniqueOrThrow({ where: { id: message.streamId } });
    header = `${reporter} reported a message sent by ${sender} at ${when}.`;
    original = `Original message at ${messageLinkSyntax(stream.id, stream.name, message.topic, message.id, actor.realmUrl)}`;
  } else {
    const conversation = message.conversationId === null ? null : await tx.directConversation.findUnique({ where: { id: message.conversationId } });
    const memberIds = [...new Set(conversation?.memberIds ?? [message.senderId])].sort((a, b) => a - b);
    const members = await tx.user.findMany({ where: { id: { in: memberIds } }, select: { id: true, fullName: true } });
    const mention = (id: number) => silentMention({ userId: id, fullName: members.find((m) => m.id === id)?.fullName ?? '' });
    if (memberIds.length <= 2) {
      if (reported.userId !== actor.userId) header = `${reporter} reported a direct message sent by ${sender} at ${when}.`;
      else {
        // Reporting one's own direct message names whom it went to.
        const other = memberIds.find((id) => id !== actor.userId);
        header = `${reporter} reported a direct message sent by ${sender} to ${other === undefined ? reporter : mention(other)} at ${when}.`;
      }
    } else {
      const others = memberIds.filter((id) => id !== reported.userId).map(mention).sort();
      const last = others.pop()!;
      const rest = others.join(', ') + (others.length > 1 ? ',' : '');
      header = `${reporter} reported a direct message sent by ${sender} to ${rest} and ${last} at ${when}.`;
    }
    const slug = memberIds.join(',') + (memberIds.length >= 3 ? '-group' : '');
    original = `[Original message](${actor.realmUrl}/#narrow/dm/${slug}/near/${message.id})`;
  }
  const snippet = truncate(message.content, SNIPPET_LENGTH, '\n[message truncated]');
  const fence = unusedFence(snippet);
  return `${header}\n\`\`\`quote\n**${REPORT_REASONS[reportType]}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${snippet}\n${fence}\n`;
}
