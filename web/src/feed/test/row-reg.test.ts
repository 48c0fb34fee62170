import type { RegisterState } from '@chat/client';
import { changedForRows } from '../context';

const base = { user_id: 1, unread_msgs: { count: 1 }, presences: {}, realm_user_groups: [], alert_words: [] } as unknown as RegisterState;

describe('changedForRows', () => {
  it('ignores what changes with each message or presence ping', () => {
    expect(changedForRows(base, { ...base, unread_msgs: { count: 2 } } as unknown as RegisterState)).toBe(false);
    expect(changedForRows(base, { ...base, presences: { 2: {} }, recent_private_conversations: [] } as unknown as RegisterState)).toBe(false);
  });
  it('sees what the rows read', () => {
    expect(changedForRows(base, { ...base, alert_words: ['x'] } as unknown as RegisterState)).toBe(true);
    expect(changedForRows(base, { ...base, realm_message_content_edit_limit_seconds: 60 } as unknown as RegisterState)).toBe(true);
    const { alert_words: _gone, ...without } = base as unknown as Record<string, unknown>;
    expect(changedForRows(base, without as unknown as RegisterState)).toBe(true);
  });
});
