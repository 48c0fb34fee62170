/** What an empty view says, by what the view is. */
import { t } from '../i18n';
import type { NarrowInfo } from './narrowInfo';

export function EmptyState({ info }: { info: NarrowInfo }) {
  const text: Record<NarrowInfo['kind'], string> = {
    feed: t('feed.empty_feed'),
    channel: t('feed.empty_channel'),
    topic: t('feed.empty_topic'),
    dm: t('feed.empty_dm'),
    'dm-all': t('feed.empty_dm_all'),
    starred: t('feed.empty_starred'),
    mentioned: t('feed.empty_mentioned'),
    unread: t('feed.empty_unread'),
    search: t('feed.empty_search'),
    sender: t('feed.empty'),
    other: t('feed.empty'),
  };
  return (
    <div className="feed-empty" role="status" data-testid="feed-empty">
      <p>{text[info.kind]}</p>
    </div>
  );
}
