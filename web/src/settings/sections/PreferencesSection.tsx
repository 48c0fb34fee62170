/** Preferences: language, time, theme and density, emoji, navigation, sidebars and composing. */
import { useEffect, useMemo } from 'react';
import { setLanguage, t } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { SettingsGroup, SettingsSection } from '../controls';
import { settingsOf } from '../lib/hooks';
import { FONT_SIZES, LINE_HEIGHTS, languageChoices, timeZones } from '../lib/values';
import { UserSelect, UserToggle } from '../UserControls';

export function PreferencesSection() {
  const reg = useReg();
  const settings = useAppState(settingsOf);
  const emojisets = (settings.emojiset_choices ?? reg.emojiset_choices ?? []) as Array<{ key: string; text: string }>;
  const zones = useMemo(() => [{ value: '', label: t('settings.pref.timezone_unset') }, ...timeZones().map((z) => ({ value: z, label: z }))], []);
  const languages = languageChoices(reg.language_list).map((l) => ({ value: l.code, label: l.name }));
  return (
    <SettingsSection title={t('settings.nav.preferences')} testId="settings-preferences">
      <SettingsGroup title={t('settings.pref.general')}>
        <LanguageFollower />
        <UserSelect name="default_language" label="settings.pref.default_language" choices={languages} />
        <UserSelect name="twenty_four_hour_time" label="settings.pref.twenty_four_hour_time" />
        <UserSelect name="timezone" label="settings.pref.timezone" choices={zones} />
      </SettingsGroup>
      <SettingsGroup title={t('settings.pref.theme')}>
        <UserSelect name="color_scheme" label="settings.pref.color_scheme" />
        <UserSelect name="web_font_size_px" label="settings.pref.web_font_size_px" choices={FONT_SIZES.map((n) => ({ value: n, label: String(n) }))} />
        <UserSelect name="web_line_height_percent" label="settings.pref.web_line_height_percent" choices={LINE_HEIGHTS.map((n) => ({ value: n, label: String(n) }))} />
        <UserToggle name="dense_mode" label="settings.pref.dense_mode" />
        <UserToggle name="fluid_layout_width" label="settings.pref.fluid_layout_width" />
        <UserToggle name="high_contrast_mode" label="settings.pref.high_contrast_mode" />
      </SettingsGroup>
      <SettingsGroup title={t('settings.pref.emoji')}>
        <UserSelect name="emojiset" label="settings.pref.emojiset" choices={emojisets.map((e) => ({ value: e.key, label: e.text }))} />
        <UserToggle name="translate_emoticons" label="settings.pref.translate_emoticons" />
        <UserToggle name="display_emoji_reaction_users" label="settings.pref.display_emoji_reaction_users" />
      </SettingsGroup>
      <SettingsGroup title={t('settings.pref.navigation')}>
        <UserSelect name="web_home_view" label="settings.pref.web_home_view" />
        <UserToggle name="web_escape_navigates_to_home_view" label="settings.pref.web_escape_navigates_to_home_view" />
        <UserSelect name="web_channel_default_view" label="settings.pref.web_channel_default_view" />
        <UserToggle name="web_navigate_to_sent_message" label="settings.pref.web_navigate_to_sent_message" />
        <UserSelect name="web_mark_read_on_scroll_policy" label="settings.pref.web_mark_read_on_scroll_policy" />
        <UserSelect name="resolved_topic_notice_auto_read_policy" label="settings.pref.resolved_topic_notice_auto_read_policy" />
      </SettingsGroup>
      <SettingsGroup title={t('settings.pref.sidebar')}>
        <UserSelect name="demote_inactive_streams" label="settings.pref.demote_inactive_streams" />
        <UserSelect name="web_stream_unreads_count_display_policy" label="settings.pref.web_stream_unreads_count_display_policy" />
        <UserSelect name="user_list_style" label="settings.pref.user_list_style" />
        <UserToggle name="left_side_userlist" label="settings.pref.left_side_userlist" />
        <UserToggle name="starred_message_counts" label="settings.pref.starred_message_counts" />
        <UserToggle name="web_inbox_show_channel_folders" label="settings.pref.web_inbox_show_channel_folders" />
        <UserToggle name="web_left_sidebar_show_channel_folders" label="settings.pref.web_left_sidebar_show_channel_folders" />
        <UserToggle name="web_left_sidebar_unreads_count_summary" label="settings.pref.web_left_sidebar_unreads_count_summary" />
      </SettingsGroup>
      <SettingsGroup title={t('settings.pref.messages')}>
        <UserToggle name="enter_sends" label="settings.pref.enter_sends" />
        <UserToggle name="receives_typing_notifications" label="settings.pref.receives_typing_notifications" />
        <UserSelect name="web_animate_image_previews" label="settings.pref.web_animate_image_previews" />
        <UserToggle name="enable_drafts_synchronization" label="settings.pref.enable_drafts_synchronization" />
        <UserToggle name="web_suggest_update_timezone" label="settings.pref.web_suggest_update_timezone" />
        {reg.server_can_summarize_topics === true && <UserToggle name="hide_ai_features" label="settings.pref.hide_ai_features" />}
      </SettingsGroup>
    </SettingsSection>
  );
}

/** The interface follows the language setting once the server's event has changed it. */
function LanguageFollower() {
  const language = useAppState((s) => settingsOf(s).default_language) as string | undefined;
  useEffect(() => {
    if (language) setLanguage(language);
  }, [language]);
  return null;
}
