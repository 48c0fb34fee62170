import { parseLocalDateTime, schedulePresets, scheduledParams, toLocalInputValue, validScheduleTime } from '../schedule';
import { checkFile, fileName, insertPlaceholder, placeholderFor, replacePlaceholder, uniquePlaceholder } from '../upload';

const ids = (now: Date) => schedulePresets(now).map((p) => `${p.id} ${toLocalInputValue(p.at)}`);

describe('schedule presets', () => {
  it('early on a Wednesday offers today and tomorrow and Monday', () => {
    expect(ids(new Date(2025, 0, 8, 7, 0))).toEqual(['today_9 2025-01-08T09:00', 'today_16 2025-01-08T16:00', 'tomorrow_9 2025-01-09T09:00', 'tomorrow_16 2025-01-09T16:00', 'monday_9 2025-01-13T09:00']);
  });
  it('drops times already past or too close', () => {
    expect(ids(new Date(2025, 0, 8, 15, 58))[0]).toBe('tomorrow_9 2025-01-09T09:00');
    expect(ids(new Date(2025, 0, 8, 12, 0))[0]).toBe('today_16 2025-01-08T16:00');
  });
  it('on Sunday Monday is tomorrow, offered once', () => {
    expect(ids(new Date(2025, 0, 12, 20, 0))).toEqual(['tomorrow_9 2025-01-13T09:00', 'tomorrow_16 2025-01-13T16:00']);
  });
  it('crosses the month end', () => {
    expect(ids(new Date(2025, 0, 31, 20, 0))).toEqual(['tomorrow_9 2025-02-01T09:00', 'tomorrow_16 2025-02-01T16:00', 'monday_9 2025-02-03T09:00']);
  });
  it('parses and checks custom times', () => {
    const d = parseLocalDateTime('2030-05-06T07:08')!;
    expect(toLocalInputValue(d)).toBe('2030-05-06T07:08');
    expect(parseLocalDateTime('nope')).toBeNull();
    expect(validScheduleTime(d, new Date(2030, 4, 6, 7, 0))).toBe(true);
    expect(validScheduleTime(d, new Date(2030, 4, 6, 7, 8))).toBe(false);
    expect(validScheduleTime(null, new Date())).toBe(false);
  });
  it('builds the API parameters', () => {
    const when = new Date(2_000_000_000_000);
    expect(scheduledParams({ type: 'stream', streamId: 5, topic: 't' }, 'hi', when)).toEqual({ type: 'stream', to: 5, topic: 't', content: 'hi', scheduled_delivery_timestamp: 2_000_000_000 });
    expect(scheduledParams({ type: 'direct', to: [3] }, 'hi', when)).toEqual({ type: 'direct', to: [3], content: 'hi', scheduled_delivery_timestamp: 2_000_000_000 });
  });
});

describe('upload helpers', () => {
  it('checks the realm limit', () => {
    expect(checkFile({ name: 'a', size: 10 }, 0)).toEqual({ kind: 'disabled' });
    expect(checkFile({ name: 'a', size: 2 * 1024 * 1024 }, 1)).toEqual({ kind: 'too_big', name: 'a', maxMib: 1 });
    expect(checkFile({ name: 'a', size: 1024 * 1024 }, 1)).toBeNull();
    expect(checkFile({ name: 'a', size: 1e12 }, undefined)).toBeNull();
  });
  it('places and replaces placeholders', () => {
    const p = placeholderFor('cat [1].png');
    expect(p).toBe('[Uploading cat 1.png…]()');
    expect(uniquePlaceholder('x', `a ${placeholderFor('x')}`)).toBe(placeholderFor('x', 1));
    const ins = insertPlaceholder('look:here', 5, 5, p);
    expect(ins.value).toBe(`look: ${p} here`);
    expect(ins.caret).toBe(6 + p.length + 1);
    expect(replacePlaceholder(ins.value, p, { url: '/user_uploads/1/ab/cat.png', filename: 'cat [1].png' })).toBe('look: [cat 1.png](/user_uploads/1/ab/cat.png) here');
    expect(replacePlaceholder(ins.value, p, null)).toBe('look:  here');
    expect(replacePlaceholder('gone', p, { url: '/u', filename: 'f' })).toBe('gone [f](/u)');
  });
  it('names pasted images', () => {
    expect(fileName({ name: 'image.png', type: 'image/png' })).toBe('image.png');
    expect(fileName({ name: '', type: 'image/jpeg' })).toBe('pasted-file.jpeg');
    expect(fileName({ name: 'doc.pdf', type: 'application/pdf' })).toBe('doc.pdf');
  });
});
