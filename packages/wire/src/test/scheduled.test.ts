import type { ScheduledMessage } from '@chat/db';
import { DELIVERY_TYPE, reminderObject, scheduledMessageObject } from '..';

const base: ScheduledMessage = {
  id: 7,
  realmId: 1,
  senderId: 10,
  deliveryType: DELIVERY_TYPE.SEND_LATER,
  recipientType: 'stream',
  streamId: 3,
  toUserIds: [],
  topic: 'castle',
  content: 'hello',
  renderedContent: '<p>hello</p>',
  scheduledTimestamp: new Date('2030-01-02T03:04:05.678Z'),
  readBySender: false,
  sendingClient: 'website',
  realmUrl: 'http://chat.test',
  delivered: false,
  deliveredMessageId: null,
  failed: false,
  failureMessage: null,
  reminderTargetMessageId: null,
  reminderNote: null,
  createdAt: new Date('2030-01-01T00:00:00Z'),
};

describe('scheduledMessageObject', () => {
  it('gives a channel message its channel id and topic', () => {
    expect(scheduledMessageObject(base)).toEqual({
      scheduled_message_id: 7,
      type: 'stream',
      to: 3,
      topic: 'castle',
      content: 'hello',
      rendered_content: '<p>hello</p>',
      scheduled_delivery_timestamp: Math.floor(Date.parse('2030-01-02T03:04:05Z') / 1000),
      failed: false,
    });
  });

  it('gives a direct message its recipients and no topic', () => {
    const dm = scheduledMessageObject({ ...base, recipientType: 'private', streamId: null, toUserIds: [11, 12], topic: '', failed: true });
    expect(dm).toMatchObject({ type: 'private', to: [11, 12], failed: true });
    expect(dm).not.toHaveProperty('topic');
  });
});

describe('reminderObject', () => {
  it('is a direct message to the user about the target message', () => {
    const r = reminderObject({ ...base, deliveryType: DELIVERY_TYPE.REMIND, recipientType: 'private', streamId: null, toUserIds: [10], topic: '', reminderTargetMessageId: 99 });
    expect(r).toEqual({
      reminder_id: 7,
      type: 'private',
      to: [10],
      content: 'hello',
      rendered_content: '<p>hello</p>',
      scheduled_delivery_timestamp: Math.floor(Date.parse('2030-01-02T03:04:05Z') / 1000),
      failed: false,
      reminder_target_message_id: 99,
    });
  });
});
