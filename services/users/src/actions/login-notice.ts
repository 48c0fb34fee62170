import type { User } from '@chat/db';
import type { Services } from '../context';
import { noreplyAddress } from '../lib/invitation-email';
import { deviceBrowser, deviceOs, loginNoticeEmail, loginTime } from '../lib/login-notice-email';
import { unsubscribeUrl } from '../lib/unsubscribe';

/** An account this young is being signed into by its own sign-up: no notice (the family's 60 seconds). */
const JUST_CREATED_MS = 60_000;

/**
 * Tells a person by mail that someone signed in to their account (a password login, the
 * account pages or fetch_api_key, or a JWT), as the family does, unless they turned
 * `enable_login_emails` off. Only queues the mail: a failure here never fails the login.
 */
export async function doNotifyNewLogin(services: Services, realm: { realmId: number; realmUrl: string }, user: User, device: { userAgent: string; ip: string }): Promise<void> {
  try {
    const settings = (user.settings ?? {}) as Record<string, unknown>;
    if (user.isBot || settings.enable_login_emails === false) return;
    if (Date.now() - user.dateJoined.getTime() <= JUST_CREATED_MS) return;
    const row = await services.db.realm.findUniqueOrThrow({ where: { id: realm.realmId }, select: { name: true } });
    await services.mail.send(
      loginNoticeEmail({
        to: user.deliveryEmail,
        from: { name: `${row.name} account security`, address: noreplyAddress(services.config, realm.realmUrl) },
        realm: { name: row.name, url: realm.realmUrl },
        time: loginTime(new Date(), user.timezone, settings.twenty_four_hour_time === true),
        browser: deviceBrowser(device.userAgent),
        os: deviceOs(device.userAgent),
        ip: device.ip,
        unsubscribeUrl: unsubscribeUrl(realm.realmUrl, services.config.INTERNAL_SECRET, realm.realmId, user.id, 'login'),
      }),
    );
  } catch (err) {
    services.log.warn({ err, userId: user.id }, 'login notice not queued');
  }
}
