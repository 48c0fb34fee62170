/**
 * The organization and one's settings: realm (update, update_dict of any section incl.
 * authentication_methods, deactivated), realm_emoji, realm_linkifiers (and the legacy
 * realm_filters), realm_playgrounds, realm_domains, realm_user_settings_defaults,
 * user_settings (and the legacy update_display_settings / update_global_notifications),
 * alert_words, onboarding_steps, invites_changed, has_zoom_token, restart.
 */
import type { RegisterState } from '@chat/client';
import type { EventHandler } from './index';
import { listOf, withReg } from './util';

/** Keys of update_dict `default` that the snapshot keeps without the realm_ prefix. */
const UNPREFIXED = new Set(['max_file_upload_size_mib']);

function authFlags(methods: Record<string, { enabled?: boolean } | boolean>): Record<string, boolean> {
  const on = (name: string) => {
    const m = methods[name];
    return typeof m === 'boolean' ? m : !!m?.enabled;
  };
  return { realm_email_auth_enabled: on('Email'), realm_password_auth_enabled: on('Email') || on('LDAP') };
}

const onRealm: EventHandler = (s, e) => {
  if (e.op === 'deactivated') {
    // Nothing more will work: the event loop takes the person to the deactivation notice.
    return { ...s, status: 'fatal', statusMessage: 'realm_deactivated' };
  }
  return withReg(s, (reg) => {
    if (e.op === 'update') {
      const next: RegisterState = { ...reg, [`realm_${e.property}`]: e.value };
      // Fields that change with this one (plan_type's upload quota) travel as extra_data.
      if (e.extra_data) for (const [k, v] of Object.entries(e.extra_data as Record<string, unknown>)) next[`realm_${k}`] = v;
      return next;
    }
    if (e.op === 'update_dict') {
      const next: RegisterState = { ...reg };
      for (const [k, v] of Object.entries(e.data as Record<string, unknown>)) next[UNPREFIXED.has(k) ? k : `realm_${k}`] = v;
      if (e.data.authentication_methods) Object.assign(next, authFlags(e.data.authentication_methods));
      return next;
    }
    return reg;
  });
};

const onRealmDomains: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    const domains = listOf<{ domain: string; allow_subdomains: boolean }>(reg, 'realm_domains');
    switch (e.op) {
      case 'add':
        return { ...reg, realm_domains: [...domains.filter((d) => d.domain !== e.realm_domain.domain), e.realm_domain] };
      case 'change':
        return { ...reg, realm_domains: domains.map((d) => (d.domain === e.realm_domain.domain ? { ...d, allow_subdomains: e.realm_domain.allow_subdomains } : d)) };
      case 'remove':
        return { ...reg, realm_domains: domains.filter((d) => d.domain !== e.domain) };
      default:
        return reg;
    }
  });

function setUserSetting(reg: RegisterState, name: string, value: unknown): RegisterState {
  return { ...reg, user_settings: { ...(reg.user_settings ?? {}), [name]: value } };
}

export const realmHandlers: Record<string, EventHandler> = {
  realm: onRealm,
  realm_emoji: (s, e) => withReg(s, (reg) => (e.op === 'update' || e.realm_emoji ? { ...reg, realm_emoji: e.realm_emoji } : reg)),
  realm_linkifiers: (s, e) => withReg(s, (reg) => ({ ...reg, realm_linkifiers: e.realm_linkifiers })),
  realm_filters: (s, e) => withReg(s, (reg) => ({ ...reg, realm_filters: e.realm_filters })),
  realm_playgrounds: (s, e) => withReg(s, (reg) => ({ ...reg, realm_playgrounds: e.realm_playgrounds })),
  realm_domains: onRealmDomains,
  realm_user_settings_defaults: (s, e) => withReg(s, (reg) => (e.op === 'update' ? { ...reg, realm_user_settings_defaults: { ...((reg.realm_user_settings_defaults as object) ?? {}), [e.property]: e.value } } : reg)),
  user_settings: (s, e) => withReg(s, (reg) => (e.op === 'update' ? setUserSetting(reg, e.property, e.value) : reg)),
  update_display_settings: (s, e) => withReg(s, (reg) => setUserSetting(reg, e.setting_name, e.setting)),
  update_global_notifications: (s, e) => withReg(s, (reg) => setUserSetting(reg, e.notification_name, e.setting)),
  alert_words: (s, e) => withReg(s, (reg) => ({ ...reg, alert_words: e.alert_words })),
  onboarding_steps: (s, e) => withReg(s, (reg) => ({ ...reg, onboarding_steps: e.onboarding_steps })),
  invites_changed: (s) => ({ ...s, invitesVersion: s.invitesVersion + 1 }),
  has_zoom_token: (s, e) => withReg(s, (reg) => ({ ...reg, has_zoom_token: e.value })),
  restart: (s, e) =>
    withReg(s, (reg) => ({
      ...reg,
      ...(e.zulip_version !== undefined ? { zulip_version: e.zulip_version } : {}),
      ...(e.zulip_merge_base !== undefined ? { zulip_merge_base: e.zulip_merge_base } : {}),
      ...(e.zulip_feature_level !== undefined ? { zulip_feature_level: e.zulip_feature_level } : {}),
    })),
};
