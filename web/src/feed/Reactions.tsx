/**
 * A message's reactions: one button per emoji with its count, pressed when the reader is among
 * those who reacted (clicking toggles), with the names of who reacted as its tooltip; and a
 * button to add another.
 */
import type { Message } from '@chat/client';
import { emojiChars, ZULIP_EMOJI } from '../emoji/data';
import { t } from '../i18n';
import { useAppState } from '../state/store';
import { toggleReaction } from './actions';
import { groupReactions, reactorNames, type ReactionGroup } from './reactions';
import { openDialog } from './view-state';

function Glyph({ group }: { group: ReactionGroup }) {
  const emoji = useAppState((s) => (group.type === 'realm_emoji' ? s.reg?.realm_emoji[group.code] : undefined));
  if (group.type === 'unicode_emoji') return <span className="reaction-emoji" aria-hidden="true">{emojiChars(group.code)}</span>;
  const src = group.type === 'zulip_extra_emoji' ? ZULIP_EMOJI.url : emoji?.source_url;
  return src ? <img className="reaction-emoji emoji-image" src={src} alt="" /> : <span className="reaction-emoji" aria-hidden="true">:{group.name}:</span>;
}

export function Reactions({ message, selfId }: { message: Message; selfId: number }) {
  const users = useAppState((s) => s.users);
  const groups = groupReactions(message.reactions, selfId);
  const nameOf = (id: number) => users.get(id)?.full_name ?? message.reactions.find((r) => r.user_id === id)?.user?.full_name ?? t('feed.unknown_user');
  return (
    <div className="reactions" role="group" aria-label={t('feed.reactions')}>
      {groups.map((g) => {
        const who = reactorNames(g, selfId, nameOf, t('feed.you'), t('feed.and'));
        const label = t('feed.reacted_with', { names: who, emoji: g.name });
        return (
          <button key={g.key} type="button" className={`reaction${g.mine ? ' mine' : ''}`} aria-pressed={g.mine} aria-label={t('feed.reaction_name', { count: g.userIds.length, label })} title={label}
            onClick={() => void toggleReaction(message, { name: g.name, code: g.code, type: g.type as 'unicode_emoji' })}>
            <Glyph group={g} />
            <span className="reaction-count">{g.userIds.length}</span>
          </button>
        );
      })}
      <button type="button" className="reaction reaction-add" aria-label={t('feed.add_reaction')} title={t('feed.add_reaction')}
        onClick={(e) => openDialog({ kind: 'emoji', messageId: message.id, anchor: e.currentTarget })}>
        <span aria-hidden="true">☺+</span>
      </button>
    </div>
  );
}
