/** The search's view of channels, people and topics, built from the store. */
import type { AppState } from '../state/store';
import type { SuggestContext } from './suggestions';

export function directoryOf(s: AppState): SuggestContext {
  const reg = s.reg!;
  const channels = [...reg.subscriptions.map((c) => ({ id: c.stream_id, name: c.name })), ...(reg.never_subscribed ?? []).map((c) => ({ id: c.stream_id, name: c.name })), ...(reg.unsubscribed ?? []).map((c) => ({ id: c.stream_id, name: c.name }))];
  const byName = new Map(channels.map((c) => [c.name.toLowerCase(), c]));
  const byId = new Map(channels.map((c) => [c.id, c]));
  const users = [...s.users.values()].filter((u) => u.is_active !== false).map((u) => ({ id: u.user_id, name: u.full_name, email: u.email, isBot: u.is_bot }));
  const byEmail = new Map([...s.users.values()].map((u) => [u.email.toLowerCase(), u]));
  const person = (u: { user_id: number; email: string; full_name: string } | undefined) => u && { id: u.user_id, email: u.email, name: u.full_name };
  return {
    channels,
    users,
    selfId: reg.user_id,
    channelByName: (name) => byName.get(name.toLowerCase()),
    channelById: (id) => byId.get(id),
    userByEmail: (email) => person(byEmail.get(email.toLowerCase())),
    userById: (id) => person(s.users.get(id)),
    userByName: (typed) => {
      // The whole name, else the email's local part, else a name's first word: one person only.
      const q = typed.toLowerCase().replace(/[+_]/g, ' ').trim();
      const active = [...s.users.values()].filter((u) => u.is_active !== false);
      for (const fits of [(u: (typeof active)[0]) => u.full_name.toLowerCase() === q, (u: (typeof active)[0]) => u.email.toLowerCase().split('@')[0] === q, (u: (typeof active)[0]) => u.full_name.toLowerCase().split(/[\s,]+/).includes(q)]) {
        const found = active.filter(fits);
        if (found.length === 1) return person(found[0]);
        if (found.length > 1) return undefined;
      }
      return undefined;
    },
    topics: (channelId) => {
      if (channelId !== undefined) return (s.topics[channelId]?.topics ?? []).map((t) => t.name);
      // Without a channel: topics of recent messages, newest first.
      const seen = new Set<string>();
      const out: string[] = [];
      for (const m of [...s.messages.values()].sort((a, b) => b.id - a.id)) {
        if (m.type !== 'stream' || seen.has(m.subject.toLowerCase())) continue;
        seen.add(m.subject.toLowerCase());
        out.push(m.subject);
        if (out.length >= 50) break;
      }
      return out;
    },
  };
}
