import type { UsersConfig } from '../config';
import type { MailMessage } from '../mail';
import { escapeHtml } from './render';

export interface InvitationEmail {
  to: string;
  link: string;
  expiresAt: Date | null;
  referrer: { fullName: string; deliveryEmail: string };
  realm: { name: string; url: string };
}

/** Server mail comes from NOREPLY_EMAIL_ADDRESS, or noreply@ the realm's host name. */
export function noreplyAddress(config: Pick<UsersConfig, 'NOREPLY_EMAIL_ADDRESS'>, realmUrl: string): string {
  if (config.NOREPLY_EMAIL_ADDRESS) return config.NOREPLY_EMAIL_ADDRESS;
  let host = 'localhost';
  try {
    host = new URL(realmUrl).hostname || host;
  } catch {
    // keep the fallback: a realm URL is always absolute in practice
  }
  return `noreply@${host}`;
}

/**
 * The invitation: who invites, to which organization, and the sign-up link. Replies go to the
 * referrer, since the sender address takes none.
 */
export function invitationEmail(config: Pick<UsersConfig, 'NOREPLY_EMAIL_ADDRESS'>, invite: InvitationEmail): MailMessage {
  const { referrer, realm } = invite;
  const expiry = invite.expiresAt
    ? `This invitation expires on ${invite.expiresAt.toUTCString()}.`
    : 'This invitation does not expire.';
  const text = [
    'Hi there,',
    '',
    `${referrer.fullName} (${referrer.deliveryEmail}) wants you to join them on ${realm.name}, at ${realm.url}.`,
    '',
    'To get started, visit the link below:',
    `    ${invite.link}`,
    '',
    expiry,
    '',
  ].join('\n');
  const html =
    `<p>Hi there,</p>` +
    `<p>${escapeHtml(referrer.fullName)} (${escapeHtml(referrer.deliveryEmail)}) wants you to join them on ` +
    `<b>${escapeHtml(realm.name)}</b>, at ${escapeHtml(realm.url)}.</p>` +
    `<p><a href="${escapeHtml(invite.link)}">Join ${escapeHtml(realm.name)}</a></p>` +
    `<p>${escapeHtml(expiry)}</p>`;
  return {
    from: { name: realm.name, address: noreplyAddress(config, realm.url) },
    to: invite.to,
    replyTo: referrer.deliveryEmail,
    subject: `${referrer.fullName} invited you to join ${realm.name}`,
    text,
    html,
  };
}

/**
 * The reminder to an invitee who has not signed up yet, sent a while before the invitation
 * expires: the same link, from the same referrer.
 */
export function invitationReminderEmail(config: Pick<UsersConfig, 'NOREPLY_EMAIL_ADDRESS'>, invite: InvitationEmail): MailMessage {
  const { referrer, realm } = invite;
  const expiry = invite.expiresAt ? `This invitation expires on ${invite.expiresAt.toUTCString()}.` : '';
  const text = [
    'Hi again,',
    '',
    `This is a friendly reminder that ${referrer.fullName} (${referrer.deliveryEmail}) wants you to join them on ${realm.name}, at ${realm.url}.`,
    '',
    'To get started, visit the link below:',
    `    ${invite.link}`,
    '',
    expiry,
    '',
  ].join('\n');
  const html =
    `<p>Hi again,</p>` +
    `<p>This is a friendly reminder that ${escapeHtml(referrer.fullName)} (${escapeHtml(referrer.deliveryEmail)}) wants you ` +
    `to join them on <b>${escapeHtml(realm.name)}</b>, at ${escapeHtml(realm.url)}.</p>` +
    `<p><a href="${escapeHtml(invite.link)}">Join ${escapeHtml(realm.name)}</a></p>` +
    (expiry ? `<p>${escapeHtml(expiry)}</p>` : '');
  return {
    from: { name: realm.name, address: noreplyAddress(config, realm.url) },
    to: invite.to,
    replyTo: referrer.deliveryEmail,
    subject: `Reminder: Join ${referrer.fullName} at ${realm.name}`,
    text,
    html,
  };
}
