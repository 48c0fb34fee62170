import { realmPolicies } from '@chat/realm';
import { realmUrlFor } from '@chat/kit';
import type { Services } from '../context';
import { noreplyAddress } from './invitation-email';
import { unsubscribeUrl, type UnsubscribeKind } from './unsubscribe';

/** What every notification mail about messages (missed messages, digests) says around its content. */
export interface NotificationEnvelope {
  to: string;
  from: { name: string; address: string };
  realm: { name: string; url: string };
  /** Who turned message content off in mails: the organization, else the person, else no one. */
  contentHiddenBy: 'realm' | 'user' | null;
  unsubscribeUrl: string;
}

/**
 * The envelope of a `kind` mail to `user`: sent from "<realm> notifications" or "<realm> digest"
 * at the no-reply address, with the unsubscribe link for that kind.
 */
export function notificationEnvelope(
  services: Pick<Services, 'config'>,
  realm: { id: number; name: string; stringId: string; settings: unknown },
  user: { id: number; deliveryEmail: string; settings: unknown },
  kind: Extract<UnsubscribeKind, 'missed_messages' | 'digest'>,
): NotificationEnvelope {
  const url = realmUrlFor(services.config, realm.stringId);
  const settings = (user.settings ?? {}) as Record<string, unknown>;
  const contentHiddenBy =
    realmPolicies(realm.settings).message_content_allowed_in_email_notifications === false
      ? 'realm'
      : settings.message_content_in_email_notifications === false
        ? 'user'
        : null;
  return {
    to: user.deliveryEmail,
    from: { name: `${realm.name} ${kind === 'digest' ? 'digest' : 'notifications'}`, address: noreplyAddress(services.config, url) },
    realm: { name: realm.name, url },
    contentHiddenBy,
    unsubscribeUrl: unsubscribeUrl(url, services.config.INTERNAL_SECRET, realm.id, user.id, kind),
  };
}
