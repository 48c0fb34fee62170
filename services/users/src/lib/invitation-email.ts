import { isMailDomainName, type UsersConfig } from '../config';
import type { MailMessage } from '../workers/mail';
import { escapeHtml } from './render';

export interface InvitationEmail {
  to: string;
  link: string;
  expiresAt: Date | null;
  referrer: { fullName: string; deliveryEmail: string };
  realm: { name: string; url: string };
}

/**
 * Server mail comes from NOREPLY_EMAIL_ADDRESS, or noreply@ the realm's host name when that is
 * a domain name. A realm at an address literal or a bare name (127.0.0.1, localhost: only
 * possible without an SMTP server, see config.ts) sends from noreply@localhost.localdomain, not
 * from an address no mail server would take.
 */
export function noreplyAddress(config: Pick<UsersConfig, 'NOREPLY_EMAIL_ADDRESS'>, realmUrl: string): string {
  if (config.NOREPLY_EMAIL_ADDRESS) return config.NOREPLY_EMAIL_ADDRESS;
  let host = '';
  try {
    host = new URL(realmUrl).hostname;
  } catch {
    // keep the fallback: a realm URL is always absolute in practice
  }
  return isMailDomainName(host) ? `noreply@${host}` : 'noreply@localhost.localdomain';
}

interface Wording {
  greeting: string;
  /** Comes before "<referrer> wants you to join them on ...". */
  lead: string;
  subject: string;
  /** What to say when the invitation never expires ('' for nothing). */
  noExpiry: string;
}

/** One message of an invitation: who invites, to which organization, and the sign-up link. */
function invitationMessage(config: Pick<UsersConfig, 'NOREPLY_EMAIL_ADDRESS'>, invite: InvitationEmail, w: Wording): MailMessage {
  const { referrer, realm } = invite;
  const expiry = invite.expiresAt ? `This invitation expires on ${invite.expiresAt.toUTCString()}.` : w.noExpiry;
  const text = [
    w.greeting,
    '',
    `${w.lead}${referrer.fullName} (${referrer.deliveryEmail}) wants you to join them on ${realm.name}, at ${realm.url}.`,
    '',
    'To get started, visit the link below:',
    `    ${invite.link}`,
    '',
    expiry,
    '',
  ].join('\n');
  const html =
    `<p>${escapeHtml(w.greeting)}</p>` +
    `<p>${escapeHtml(w.lead)}${escapeHtml(referrer.fullName)} (${escapeHtml(referrer.deliveryEmail)}) wants you to join them on ` +
    `<b>${escapeHtml(realm.name)}</b>, at ${escapeHtml(realm.url)}.</p>` +
    `<p><a href="${escapeHtml(invite.link)}">Join ${escapeHtml(realm.name)}</a></p>` +
    (expiry ? `<p>${escapeHtml(expiry)}</p>` : '');
  return {
    from: { name: realm.name, address: noreplyAddress(config, realm.url) },
    to: invite.to,
    // Replies go to the referrer, since the sender address takes none.
    replyTo: referrer.deliveryEmail,
    subject: w.subject,
    text,
    html,
  };
}

/** The invitation itself. */
export function invitationEmail(config: Pick<UsersConfig, 'NOREPLY_EMAIL_ADDRESS'>, invite: InvitationEmail): MailMessage {
  return invitationMessage(config, invite, {
    greeting: 'Hi there,',
    lead: '',
    subject: `${invite.referrer.fullName} invited you to join ${invite.realm.name}`,
    noExpiry: 'This invitation does not expire.',
  });
}

/**
 * The reminder to an invitee who has not signed up yet, sent a while before the invitation
 * expires: the same link, from the same referrer.
 */
export function invitationReminderEmail(config: Pick<UsersConfig, 'NOREPLY_EMAIL_ADDRESS'>, invite: InvitationEmail): MailMessage {
  return invitationMessage(config, invite, {
    greeting: 'Hi again,',
    lead: 'This is a friendly reminder that ',
    subject: `Reminder: Join ${invite.referrer.fullName} at ${invite.realm.name}`,
    noExpiry: '',
  });
}
