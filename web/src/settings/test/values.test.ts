import { CHOICES, effectiveChannelSetting, fromChoice, languageChoices, NOTIFICATION_ROWS, toChoice } from '../lib/values';

describe('settings values', () => {
  it('maps booleans, numbers and strings through a select and back', () => {
    expect(toChoice(true)).toBe('true');
    expect(fromChoice('twenty_four_hour_time', 'true', false)).toBe(true);
    expect(fromChoice('color_scheme', 2, 1)).toBe(2);
    expect(fromChoice('color_scheme', '3', 1)).toBe(3);
    expect(fromChoice('web_home_view', 'inbox', 'recent')).toBe('inbox');
  });

  it('uses the family codes for the theme', () => {
    expect(CHOICES.color_scheme!.map((c) => c.value)).toEqual([1, 3, 2]);
  });

  it('prefers the snapshot language list and falls back to the built-in one', () => {
    expect(languageChoices([{ code: 'de', name: 'Deutsch' }, { bad: 1 }])).toEqual([{ code: 'de', name: 'Deutsch' }]);
    expect(languageChoices(undefined).some((l) => l.code === 'en')).toBe(true);
  });

  it('takes a channel override, or the general setting where there is none', () => {
    expect(effectiveChannelSetting(null, true)).toBe(true);
    expect(effectiveChannelSetting(false, true)).toBe(false);
    expect(effectiveChannelSetting(undefined, undefined)).toBe(false);
  });

  it('has a setting for every column of the DM row except @all', () => {
    const dms = NOTIFICATION_ROWS[1]!.settings;
    expect(Object.keys(dms).sort()).toEqual(['audible', 'desktop', 'email', 'push']);
  });
});
