import { recordEvent } from '@chat/bus';
import { errors, checkAdmin, type Actor, checkOwner, SYSTEM_GROUPS } from '@chat/contracts';
import {
  checkGroupSettingValue, groupMemberIds, groupPermissionConfig, realmGroupSettings, REALM_GROUP_SETTING_DEFAULTS, REALM_POLICY_DEFAULTS, sameGroupSettingValue, systemGroupIds,
} from '@chat/realm';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';

export const REALM_NAME_MAX = 40;
export const REALM_DESCRIPTION_MAX = 1000;
export const TOPICS_POLICIES = ['allow_empty_topic', 'disable_empty_topic'];

/** Policies only owners may change: who joins, who invites, who manages everything. */
const OWNER_ONLY = new Set([
  'invite_required', 'emails_restricted_to_domains', 'disallow_disposable_email_addresses', 'waiting_period_threshold',
  'create_multiuse_invite_group', 'can_create_web_public_channel_group', 'can_manage_all_groups', 'can_manage_billing_group',
]);

/** Settings whose value may be null ("unlimited"). */
const NULLABLE = new Set(['message_content_edit_limit_seconds', 'message_content_delete_limit_seconds', 'move_messages_within_stream_limit_seconds', 'move_messages_between_streams_limit_seconds', 'jitsi_server_url']);

export type RealmChange = Record<string, unknown>;

/** Parses one raw parameter of PATCH /realm into its stored value. */
export function parseRealmParam(name: string, raw: unknown): unknown {
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (name === 'name' || name === 'description') return String(raw);
  if (name === 'topics_policy') {
    if (!TOPICS_POLICIES.includes(text)) throw errors.invalidArgument(name);
    return text;
  }
  if (name === 'allow_edit_history') {
    if (text !== 'true' && text !== 'false') throw errors.invalidArgument(name, `${name} is not a boolean`);
    return text === 'true';
  }
  if (name in REALM_GROUP_SETTING_DEFAULTS) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(text);
    } catch {
      throw errors.invalidJson(name);
    }
    const value = decoded && typeof decoded === 'object' && 'new' in (decoded as object) ? (decoded as { new: unknown }).new : decoded;
    if (Number.isSafeInteger(value)) return value;
    const v = value as { direct_members?: unknown; direct_subgroups?: unknown };
    if (v && Array.isArray(v.direct_members) && Array.isArray(v.direct_subgroups) && [...v.direct_members, ...v.direct_subgroups].every(Number.isSafeInteger)) {
      return { direct_members: v.direct_members, direct_subgroups: v.direct_subgroups };
    }
    throw errors.invalidArgument(name);
  }
  const fallback = (REALM_POLICY_DEFAULTS as Record<string, unknown>)[name];
  if (NULLABLE.has(name) && (text === 'null' || text === '"unlimited"' || text === 'unlimited')) return null;
  if (typeof fallback === 'boolean') {
    if (text !== 'true' && text !== 'false') throw errors.invalidArgument(name, `${name} is not a boolean`);
    return text === 'true';
  }
  if (typeof fallback === 'number' || (fallback === null && name !== 'jitsi_server_url')) {
    if (!/^-?\d+$/.test(text)) throw errors.invalidArgument(name, `${name} is not an integer`);
    const n = Number(text);
    if (n < -1 || (NULLABLE.has(name) && n <= 0)) throw errors.invalidArgument(name);
    return n;
  }
  return String(raw);
}

export const REALM_PARAMS = ['name', 'description', 'topics_policy', 'allow_edit_history', ...Object.keys(REALM_POLICY_DEFAULTS), ...Object.keys(REALM_GROUP_SETTING_DEFAULTS)];

/** PATCH /realm: administrators change the organization; owners its most sensitive policies. */
export async function doUpdateRealm(
  services: Services,
  actor: Actor,
  request: { names: string[]; read: () => RealmChange },
): Promise<Record<string, unknown>> {
  checkAdmin(actor);
  if (request.names.some((k) => OWNER_ONLY.has(k))) checkOwner(actor);
  const change = request.read();
  if (change.name !== undefined) {
    const name = String(change.name).trim();
    if (!name) throw errors.badRequest("Organization name can't be empty.");
    if ([...name].length > REALM_NAME_MAX) throw errors.badRequest(`name is too long (limit: ${REALM_NAME_MAX} characters)`);
    change.name = name;
  }
  if (change.description !== undefined && [...String(change.description)].length > REALM_DESCRIPTION_MAX) {
    throw errors.badRequest(`description is too long (limit: ${REALM_DESCRIPTION_MAX} characters)`);
  }
  return services.db.$transaction(async (tx) => {
    await tx.$queryRawUnsafe('SELECT 1 FROM realms WHERE id = $1 FOR UPDATE', actor.realmId);
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
    const settings = { ...((realm.settings ?? {}) as Record<string, unknown>) };
    const columns: Record<string, unknown> = {};
    const changed: Record<string, unknown> = {};
    const groupChanges: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(change)) {
      if (key === 'name' || key === 'description' || key === 'topics_policy' || key === 'allow_edit_history') {
        const column = { name: 'name', description: 'description', topics_policy: 'topicsPolicy', allow_edit_history: 'allowEditHistory' }[key]!;
        if ((realm as Record<string, unknown>)[column] === value) continue;
        columns[column] = value;
        changed[key] = value;
      } else if (key in REALM_GROUP_SETTING_DEFAULTS) {
        const checked = await checkGroupSettingValue(tx, realm.id, key, value, groupPermissionConfig('realm', key));
        const current = realmGroupSettings(settings, await systemGroupIds(tx, realm.id))[key]!;
        if (sameGroupSettingValue(checked, current)) continue;
        settings[key] = checked;
        groupChanges[key] = checked;
        changed[key] = checked;
      } else {
        const current = key in settings ? settings[key] : (REALM_POLICY_DEFAULTS as Record<string, unknown>)[key];
        if (current === value) continue;
        settings[key] = value;
        changed[key] = value;
      }
    }
    if (!Object.keys(changed).length) return {};
    const fullMembers = (await systemGroupIds(tx, realm.id)).get(SYSTEM_GROUPS.fullMembers)!;
    const fullBefore = 'waiting_period_threshold' in changed ? await groupMemberIds(tx, realm.id, fullMembers, true) : [];
    await tx.realm.update({ where: { id: realm.id }, data: { ...columns, settings: settings as object } });
    const everyone = await activeUserIds(tx, realm.id);
    if ('waiting_period_threshold' in changed) {
      // Full members are computed from the threshold (@chat/realm): announce who it moved, as the family does.
      const fullAfter = await groupMemberIds(tx, realm.id, fullMembers, true);
      const moved = [['remove_members', fullBefore.filter((id) => !fullAfter.includes(id))], ['add_members', fullAfter.filter((id) => !fullBefore.includes(id))]] as const;
      for (const [op, userIds] of moved) {
        if (!userIds.length) continue;
        await recordEvent(tx, { realmId: realm.id, type: 'user_group', users: everyone, event: { type: 'user_group', op, group_id: fullMembers, user_ids: userIds } });
      }
    }
    for (const [property, value] of Object.entries(changed)) {
      if (property in groupChanges) continue;
      await recordEvent(tx, { realmId: realm.id, type: 'realm', users: everyone, event: { type: 'realm', op: 'update', property, value } });
    }
    if (Object.keys(groupChanges).length) {
      await recordEvent(tx, { realmId: realm.id, type: 'realm', users: everyone, event: { type: 'realm', op: 'update_dict', property: 'default', data: groupChanges } });
    }
    return changed;
  });
}
