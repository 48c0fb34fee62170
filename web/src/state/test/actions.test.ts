/**
 * What the views ask of the server, against a scripted API: sending retries with the same
 * queue id and local id (the server recognises a repeat), pages drop acknowledged pending
 * copies, reading is batched, whole views are marked in pieces until the server is done.
 */
import { ApiError } from '@chat/client';
import { store } from '../store';
import { state, streamMessage } from './helpers';

const mockApi = {
  sendMessage: jest.fn(),
  getMessages: jest.fn(),
  updateFlags: jest.fn(),
  updateFlagsForNarrow: jest.fn(),
  markAllAsRead: jest.fn(),
  call: jest.fn(),
};

// A getter: the factory runs before this module's own lines do.
jest.mock('../../api', () => ({
  get api() {
    return mockApi;
  },
}));
const api = mockApi;
jest.mock('../../events/loop', () => ({ currentQueueId: () => 'q7' }));

// Imported after the mocks (jest hoists jest.mock above imports either way).
import { loadNarrow, loadTopics, retrySend, sendMessage } from '../actions';
import { flushRead, markAllAsRead, markAsRead, markNarrowAsRead, markUnread, READ_BATCH_MS } from '../reading';

beforeEach(() => {
  jest.useFakeTimers();
  for (const f of Object.values(api)) f.mockReset();
  store.set(() => state());
});

afterEach(() => jest.useRealTimers());

describe('sending', () => {
  it('retries a send that failed for a passing reason with the same queue id and local id', async () => {
    api.sendMessage.mockRejectedValueOnce(new ApiError('NETWORK', 'down', 0)).mockResolvedValueOnce({ id: 900 });
    const localId = sendMessage({ type: 'stream', to: 10, topic: 'balcony', content: 'hello' });
    await jest.advanceTimersByTimeAsync(600);
    expect(api.sendMessage).toHaveBeenCalledTimes(2);
    const [first, second] = api.sendMessage.mock.calls.map((c) => c[0]);
    expect(first).toMatchObject({ queue_id: 'q7', local_id: localId });
    expect(second).toEqual(first);
    expect(store.get().outbox).toEqual([expect.objectContaining({ localId, messageId: 900 })]);
  });

  it('keeps a refused send as failed, and a retry sends the same local id again', async () => {
    api.sendMessage.mockRejectedValueOnce(new ApiError('BAD_REQUEST', 'Topic too long', 400)).mockResolvedValueOnce({ id: 901 });
    const localId = sendMessage({ type: 'stream', to: 10, topic: 'x', content: 'y' });
    await jest.advanceTimersByTimeAsync(0);
    expect(store.get().outbox[0]).toMatchObject({ localId, failed: 'Topic too long' });
    retrySend(localId);
    await jest.advanceTimersByTimeAsync(0);
    expect(api.sendMessage.mock.calls[1]![0]).toMatchObject({ local_id: localId, queue_id: 'q7' });
    expect(store.get().outbox[0]).toMatchObject({ localId, messageId: 901, failed: undefined });
  });

  it('a fetched page showing the sent message ends its pending copy', async () => {
    store.set((s) => ({ ...s, outbox: [{ localId: 'a', queueId: 'q7', params: { type: 'stream', to: 10, topic: 'balcony', content: 'x' }, timestamp: 1, messageId: 950 }] }));
    api.getMessages.mockResolvedValueOnce({ messages: [streamMessage({ id: 950 })], found_oldest: true, found_newest: true, anchor: 0, found_anchor: false });
    await loadNarrow([]);
    expect(store.get().outbox).toEqual([]);
    expect(store.get().narrows['[]']).toMatchObject({ ids: [950], foundOldest: true, foundNewest: true, loading: false });
  });
});

describe('topics', () => {
  it('are fetched once per channel and keep topics events added meanwhile', async () => {
    api.call.mockResolvedValueOnce({ topics: [{ name: 'old', max_id: 3 }] });
    await loadTopics(10);
    await loadTopics(10);
    expect(api.call).toHaveBeenCalledTimes(1);
    expect(api.call).toHaveBeenCalledWith('GET', '/users/me/10/topics');
    expect(store.get().topics[10]).toEqual({ topics: [{ name: 'old', max_id: 3 }], complete: true, loading: false });
  });
});

describe('reading', () => {
  it('batches the unread ones seen on screen into one request', async () => {
    store.set((s) => ({ ...s, reg: { ...s.reg!, unread_msgs: { ...s.reg!.unread_msgs, count: 3, streams: [{ stream_id: 10, topic: 'a', unread_message_ids: [1, 2, 3] }] } } }));
    api.updateFlags.mockResolvedValue({ messages: [] });
    markAsRead([3, 1]);
    markAsRead([2, 99]);
    expect(api.updateFlags).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(READ_BATCH_MS);
    expect(api.updateFlags).toHaveBeenCalledTimes(1);
    expect(api.updateFlags).toHaveBeenCalledWith([1, 2, 3], 'add', 'read');
    await flushRead();
    expect(api.updateFlags).toHaveBeenCalledTimes(1);
  });

  it('marks a view read in pieces until the newest', async () => {
    api.updateFlagsForNarrow
      .mockResolvedValueOnce({ processed_count: 2, updated_count: 2, first_processed_id: 1, last_processed_id: 5, found_oldest: true, found_newest: false })
      .mockResolvedValueOnce({ processed_count: 1, updated_count: 1, first_processed_id: 6, last_processed_id: 9, found_oldest: false, found_newest: true });
    expect(await markNarrowAsRead([{ operator: 'channel', operand: '10' }])).toBe(3);
    expect(api.updateFlagsForNarrow.mock.calls.map((c) => [c[0].anchor, c[0].include_anchor, c[0].op])).toEqual([['oldest', true, 'add'], [5, false, 'add']]);
  });

  it('mark as unread from a message onwards', async () => {
    api.updateFlagsForNarrow.mockResolvedValueOnce({ processed_count: 1, updated_count: 1, first_processed_id: 7, last_processed_id: 7, found_oldest: false, found_newest: true });
    await markUnread(7, [{ operator: 'channel', operand: '10' }, { operator: 'topic', operand: 'a' }]);
    expect(api.updateFlagsForNarrow.mock.calls[0]![0]).toMatchObject({ anchor: 7, include_anchor: true, op: 'remove', flag: 'read', narrow: [{ operator: 'channel', operand: 10 }, { operator: 'topic', operand: 'a' }] });
  });

  it('mark all as read repeats until complete', async () => {
    api.markAllAsRead.mockResolvedValueOnce({ complete: false }).mockResolvedValueOnce({ complete: true });
    await markAllAsRead();
    expect(api.markAllAsRead).toHaveBeenCalledTimes(2);
  });
});
