import { apiNarrow, channelHash, dmHash, encodeHashComponent, parseHash, viewHash } from '../hash';

describe('the family hash format', () => {
  it('encodes and decodes topics as the family does', () => {
    expect(encodeHashComponent('lunch plans (v1.2) 100%')).toBe('lunch.20plans.20.28v1.2E2.29.20100.25');
    const view = parseHash(channelHash(12, 'general', 'lunch plans (v1.2) 100%'));
    expect(view).toEqual({ kind: 'narrow', terms: [{ operator: 'channel', operand: '12-general' }, { operator: 'topic', operand: 'lunch plans (v1.2) 100%' }] });
  });

  it('reads old operator names and negations', () => {
    expect(parseHash('#narrow/stream/12-general/subject/x/-is/starred')).toEqual({
      kind: 'narrow',
      terms: [{ operator: 'channel', operand: '12-general' }, { operator: 'topic', operand: 'x' }, { operator: 'is', operand: 'starred', negated: true }],
    });
  });

  it('turns channel and dm operands into ids for the API', () => {
    expect(apiNarrow(parseHash(dmHash([13, 12], 'x')).kind === 'narrow' ? (parseHash(dmHash([13, 12], 'x')) as any).terms : [])).toEqual([{ operator: 'dm', operand: [12, 13] }]);
    expect(apiNarrow([{ operator: 'channel', operand: '7-design' }])).toEqual([{ operator: 'channel', operand: 7 }]);
  });

  it('sends a sender by id (the hash writes <id>-<name>), an email as it is', () => {
    expect(apiNarrow([{ operator: 'sender', operand: '2-Iago' }])).toEqual([{ operator: 'sender', operand: 2 }]);
    expect(apiNarrow([{ operator: 'sender', operand: 'iago@example.com' }])).toEqual([{ operator: 'sender', operand: 'iago@example.com' }]);
  });

  it('writes dm id lists with bare commas, as the family links them', () => {
    expect(dmHash([7, 5], 'x')).toBe('#narrow/dm/5,7-group');
    expect(dmHash([5], 'Iago')).toBe('#narrow/dm/5-Iago');
  });

  it('round-trips the fixed views', () => {
    for (const hash of ['#inbox', '#recent', '#feed', '#drafts', '#scheduled', '#settings/profile', '#organization/users']) expect(viewHash(parseHash(hash))).toBe(hash);
  });
});
