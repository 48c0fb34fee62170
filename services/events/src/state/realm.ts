/** realm: the organization's own settings, under their realm_* names. */
import type { Db } from '@chat/db';
import { realmIconSource, realmIconUrl, realmLogoSource, realmLogoUrl } from '@chat/wire';
import type { StateOptions, Want } from '.';

export async function realmSection(_db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  if (!want('realm')) return {};
  const r = opts.realm;
  const settings = (r.settings ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Settings without a column of their own are stored under their API names.
  for (const [key, value] of Object.entries(settings)) {
    if (key !== 'user_defaults') out[`realm_${key}`] = value;
  }
  return {
    ...out,
    realm_name: r.name,
    realm_description: r.description,
    realm_icon_url: realmIconUrl(r),
    realm_icon_source: realmIconSource(r),
    realm_logo_url: realmLogoUrl(r, false),
    realm_logo_source: realmLogoSource(r, false),
    realm_night_logo_url: realmLogoUrl(r, true),
    realm_night_logo_source: realmLogoSource(r, true),
    // MiB; null is unlimited. The quota itself is set in GiB, as the uploads service applies it.
    realm_upload_quota_mib: r.customUploadQuotaGb === null ? null : r.customUploadQuotaGb * 1024,
    realm_url: opts.identity.realmUrl,
    realm_uri: opts.identity.realmUrl,
    realm_date_created: Math.floor(r.dateCreated.getTime() / 1000),
    realm_allow_edit_history: r.allowEditHistory,
    realm_is_zephyr_mirror_realm: false,
    realm_web_public_access_enabled: settings.enable_spectator_access === true,
    realm_presence_disabled: settings.presence_disabled === true,
    realm_default_language: settings.default_language ?? 'en',
    realm_enable_spectator_access: settings.enable_spectator_access === true,
    server_generation: Math.floor(Date.now() / 1000),
  };
}
