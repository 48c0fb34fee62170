/**
 * Form pieces shared by the personal and the organization settings: the layout, sections,
 * labelled toggles, selects and text fields, and the save state in words.
 */
import '../../styles/settings.css';

export { SettingsLayout, type SectionLink, type SettingsLayoutProps } from './SettingsLayout';
export { SettingsSection, SettingsGroup } from './Section';
export { Toggle, type ToggleProps } from './Toggle';
export { Select, type Choice, type SelectProps } from './Select';
export { TextSetting, type TextSettingProps } from './TextSetting';
export { SaveState, saveStateText } from './SaveState';
export { useSave, IDLE, type SaveStatus, type SaveHandle } from './useSave';
