/**
 * People: realm_user (add, update of any field, remove), realm_bot, user_group (add, update,
 * members, subgroups, remove), presence (the slim `presences` form and the legacy per-client
 * form), user_status, muted_users and custom_profile_fields. The `users` index follows the
 * snapshot's lists, and messages show their sender's current name and avatar.
 */
import type { Message, RegisterState, UserGroup } from '@chat/client';
import { indexUsers } from '../store';
import type { EventHandler, LooseEvent } from './index';
import { listOf, mapWhere, sortedUnion, upsert, without, withReg } from './util';

const ROLE_OWNER = 100;
const ROLE_ADMIN = 200;
const ROLE_MODERATOR = 300;
const ROLE_GUEST = 600;

/** The older role flags a user object carries beside `role`. */
export function roleFlags(role: number): { is_owner: boolean; is_admin: boolean; is_guest: boolean } {
  return { is_owner: role === ROLE_OWNER, is_admin: role === ROLE_OWNER || role === ROLE_ADMIN, is_guest: role === ROLE_GUEST };
}

type Person = Record<string, unknown> & { user_id: number };

/** The fields of an update as a user object holds them. */
function changesOf(person: Person, current: Person): Person {
  const { user_id, custom_profile_field: field, new_email, ...changed } = person as Person & { custom_profile_field?: { id: number; value: string | null; rendered_value?: string }; new_email?: string };
  const out: Person = { user_id, ...changed };
  if (new_email !== undefined) out.email = new_email;
  if (field) {
    const data = { ...((current.profile_data as Record<string, unknown>) ?? {}) };
    if (field.value === null) delete data[field.id];
    else data[field.id] = { value: field.value, ...(field.rendered_value !== undefined ? { rendered_value: field.rendered_value } : {}) };
    out.profile_data = data;
  }
  if (typeof changed.role === 'number') Object.assign(out, roleFlags(changed.role));
  // A user object carries avatar_url and avatar_version only; the rest is one's own (top level).
  delete out.avatar_source;
  delete out.avatar_url_medium;
  return out;
}

function updatePerson(reg: RegisterState, person: Person): RegisterState {
  const lists = ['realm_users', 'realm_non_active_users', 'cross_realm_bots'] as const;
  const current = lists.flatMap((l) => listOf<Person>(reg, l)).find((p) => p.user_id === person.user_id);
  if (!current) return reg;
  const changes = changesOf(person, current);
  const own = person as Person;
  const updated = { ...current, ...changes };
  const lists2: Record<string, unknown> = {};
  for (const l of lists) if (Array.isArray(reg[l])) lists2[l] = mapWhere(listOf<Person>(reg, l), 'user_id', [person.user_id], () => updated);
  let next = { ...reg, ...lists2 } as RegisterState;
  if ('is_active' in changes && lists.slice(0, 2).some((l) => listOf<Person>(reg, l).includes(current))) {
    // (De)activation moves the person between the two lists.
    const [from, to] = changes.is_active ? ['realm_non_active_users', 'realm_users'] : ['realm_users', 'realm_non_active_users'];
    next = { ...next, [from]: listOf<Person>(next, from).filter((p) => p.user_id !== person.user_id), [to]: upsert(listOf<Person>(next, to), 'user_id', updated) };
  }
  if (person.user_id === reg.user_id) {
    // One's own top-level fields.
    const top: Record<string, unknown> = {};
    for (const k of ['full_name', 'email', 'delivery_email', 'avatar_url', 'avatar_url_medium', 'avatar_source', 'avatar_version', 'is_billing_admin', 'role', 'timezone']) {
      if (k in own) top[k] = own[k];
      if (k in changes) top[k] = changes[k];
    }
    if (typeof changes.role === 'number') Object.assign(top, roleFlags(changes.role), { is_moderator: changes.role === ROLE_MODERATOR });
    next = { ...next, ...top };
  }
  return next;
}

const onRealmUser: EventHandler = (s, e) => {
  const person = e.person as Person;
  let next = withReg(s, (reg) => {
    switch (e.op) {
      case 'add': {
        const rest = { ...reg, realm_non_active_users: listOf<Person>(reg, 'realm_non_active_users').filter((p) => p.user_id !== person.user_id) } as RegisterState;
        return { ...rest, realm_users: upsert(listOf<Person>(reg, 'realm_users'), 'user_id', person) } as RegisterState;
      }
      case 'update':
        return updatePerson(reg, person);
      case 'remove':
        // Someone one may no longer see.
        return { ...reg, realm_users: listOf<Person>(reg, 'realm_users').filter((p) => p.user_id !== person.user_id) } as RegisterState;
      default:
        return reg;
    }
  });
  if (next.reg && next.reg !== s.reg) next = { ...next, users: indexUsers(next.reg) };
  if (e.op === 'update' && (person.full_name !== undefined || person.avatar_url !== undefined)) {
    // The family's messages show their sender as the sender is now.
    const messages = new Map(next.messages);
    for (const m of messages.values()) {
      if (m.sender_id !== person.user_id) continue;
      messages.set(m.id, { ...m, ...(person.full_name !== undefined ? { sender_full_name: person.full_name } : {}), ...(person.avatar_url !== undefined ? { avatar_url: person.avatar_url } : {}) } as Message);
    }
    next = { ...next, messages };
  }
  return next;
};

const onRealmBot: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    const bots = listOf<Person>(reg, 'realm_bots');
    const bot = e.bot as Person;
    switch (e.op) {
      case 'add':
        return { ...reg, realm_bots: upsert(bots, 'user_id', bot) };
      case 'update':
        return { ...reg, realm_bots: mapWhere(bots, 'user_id', [bot.user_id], (b) => ({ ...b, ...bot })) };
      case 'remove':
        return { ...reg, realm_bots: mapWhere(bots, 'user_id', [bot.user_id], (b) => ({ ...b, is_active: false })) };
      case 'delete':
        return { ...reg, realm_bots: bots.filter((b) => b.user_id !== bot.user_id) };
      default:
        return reg;
    }
  });

const onUserGroup: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    const groups = reg.realm_user_groups ?? [];
    const edit = (update: (g: UserGroup) => UserGroup) => ({ ...reg, realm_user_groups: groups.map((g) => (g.id === e.group_id ? update(g) : g)) });
    switch (e.op) {
      case 'add':
        return { ...reg, realm_user_groups: upsert(groups, 'id', e.group as UserGroup) };
      case 'remove':
        return { ...reg, realm_user_groups: groups.filter((g) => g.id !== e.group_id) };
      case 'update':
        return edit((g) => ({ ...g, ...e.data }));
      case 'add_members':
        return edit((g) => ({ ...g, members: sortedUnion(g.members, e.user_ids) }));
      case 'remove_members':
        return edit((g) => ({ ...g, members: without(g.members, e.user_ids) }));
      case 'add_subgroups':
        return edit((g) => ({ ...g, direct_subgroup_ids: sortedUnion(g.direct_subgroup_ids, e.direct_subgroup_ids) }));
      case 'remove_subgroups':
        return edit((g) => ({ ...g, direct_subgroup_ids: without(g.direct_subgroup_ids, e.direct_subgroup_ids) }));
      default:
        return reg;
    }
  });

type Presence = { active_timestamp?: number; idle_timestamp?: number };

/** The slim presence of one person after a legacy per-client report (the newest of each kind wins). */
export function mergeLegacyPresence(current: Presence | undefined, clients: Record<string, { status: string; timestamp: number }>): Presence {
  const next: Presence = { ...(current ?? {}) };
  for (const c of Object.values(clients)) {
    if (c.status === 'active' && c.timestamp > (next.active_timestamp ?? 0)) next.active_timestamp = c.timestamp;
    if (c.status === 'idle' && c.timestamp > (next.idle_timestamp ?? 0)) next.idle_timestamp = c.timestamp;
  }
  return next;
}

const onPresence: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    const presences = { ...((reg.presences ?? {}) as Record<string, Presence>) };
    if (e.presences) Object.assign(presences, e.presences as Record<string, Presence>);
    else if (e.user_id !== undefined && e.presence) presences[String(e.user_id)] = mergeLegacyPresence(presences[String(e.user_id)], e.presence);
    return { ...reg, presences };
  });

/** A status as the snapshot keeps it: only what is set (an empty text or emoji clears it). */
export function applyStatus(current: Record<string, unknown> | undefined, e: LooseEvent): Record<string, unknown> {
  const next: Record<string, unknown> = { ...(current ?? {}) };
  if (e.status_text !== undefined) {
    if (e.status_text) next.status_text = e.status_text;
    else delete next.status_text;
  }
  if (e.emoji_name !== undefined) {
    if (e.emoji_name) Object.assign(next, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
    else for (const k of ['emoji_name', 'emoji_code', 'reaction_type']) delete next[k];
  }
  return next;
}

const onUserStatus: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    const all = { ...(reg.user_status ?? {}) } as Record<string, Record<string, unknown>>;
    const status = applyStatus(all[String(e.user_id)], e);
    if (Object.keys(status).length) all[String(e.user_id)] = status;
    else delete all[String(e.user_id)];
    return { ...reg, user_status: all as RegisterState['user_status'] };
  });

export const peopleHandlers: Record<string, EventHandler> = {
  realm_user: onRealmUser,
  realm_bot: onRealmBot,
  user_group: onUserGroup,
  presence: onPresence,
  user_status: onUserStatus,
  muted_users: (s, e) => withReg(s, (reg) => ({ ...reg, muted_users: e.muted_users })),
  custom_profile_fields: (s, e) => withReg(s, (reg) => ({ ...reg, custom_profile_fields: e.fields })),
};
