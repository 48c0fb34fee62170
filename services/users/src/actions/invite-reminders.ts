import type { Db, Invite } from '@chat/db';
import type { UsersConfig } from '../config';
import type { Services } from '../context';
import { invitationReminderEmail } from '../lib/invitation-email';
import type { MailMessage, MailRenderers } from '../workers/mail';
import { inviteLink } from './invites';

/** The mail job that reminds an invitee; rendered when it runs, so it can see what changed. */
export const INVITE_REMINDER_JOB = 'invite-reminder';

interface ReminderJob {
  inviteId: number;
  realmUrl: string;
}

/** One reminder per invitation: a resend reschedules it under the same id. */
const reminderJobId = (inviteId: number) => `invite-reminder-${inviteId}`;

/**
 * Queues the reminder for an email invitation just (re)sent: INVITE_REMINDER_BEFORE_EXPIRY
 * before it expires, for invitations valid at least INVITE_REMINDER_MIN_VALIDITY from now
 * (never-expiring ones get none). A delayed BullMQ job, so it survives restarts and exactly
 * one replica's worker runs it. Called once the invitation is committed.
 */
export async function scheduleInviteReminder(
  services: Services,
  invite: Pick<Invite, 'id' | 'expiresAt'>,
  realmUrl: string,
  /** The invitation's creation for a new one (its validity is what was asked for), else now. */
  sentAt: Date,
): Promise<void> {
  const { INVITE_REMINDER_BEFORE_EXPIRY_SECONDS: before, INVITE_REMINDER_MIN_VALIDITY_SECONDS: minValidity } = services.config;
  // In whole seconds: the expiry and the creation time are taken a few milliseconds apart.
  const validSeconds = invite.expiresAt ? Math.round((invite.expiresAt.getTime() - sentAt.getTime()) / 1000) : null;
  // A resend too close to expiry for a reminder still drops the one of the earlier sending.
  if (!invite.expiresAt || validSeconds === null || validSeconds < minValidity) return services.mail.cancel(reminderJobId(invite.id));
  const data: ReminderJob = { inviteId: invite.id, realmUrl };
  const delayMs = invite.expiresAt.getTime() - before * 1000 - Date.now();
  await services.mail.sendLater(INVITE_REMINDER_JOB, data, { delayMs, jobId: reminderJobId(invite.id) });
}

/**
 * The reminder, if it is still due: the invitation neither used, revoked nor expired. A resend
 * replaced this job with its own (same job id), so a superseded reminder never runs.
 */
async function renderInviteReminder(db: Db, config: UsersConfig, job: ReminderJob): Promise<MailMessage | null> {
  const invite = await db.invite.findUnique({ where: { id: job.inviteId } });
  if (!invite?.email || invite.revoked || invite.createdUserId !== null) return null;
  if (invite.expiresAt && invite.expiresAt <= new Date()) return null;
  const [realm, referrer] = await Promise.all([
    db.realm.findUniqueOrThrow({ where: { id: invite.realmId } }),
    db.user.findUniqueOrThrow({ where: { id: invite.referredById } }),
  ]);
  return invitationReminderEmail(config, {
    to: invite.email,
    link: inviteLink(job.realmUrl, invite.key),
    expiresAt: invite.expiresAt,
    referrer,
    realm: { name: realm.name, url: job.realmUrl },
  });
}

export function inviteMailRenderers(db: Db, config: UsersConfig): MailRenderers {
  return { [INVITE_REMINDER_JOB]: (data) => renderInviteReminder(db, config, data as ReminderJob) };
}
