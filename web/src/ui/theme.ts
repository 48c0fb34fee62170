/**
 * The page's look from the person's settings, applied on <html> and kept current as
 * user_settings events change them: `data-theme` from color_scheme (1 follows the system,
 * 2 dark, 3 light), density (dense_mode), font size and line height.
 */
import { useEffect, useState } from 'react';
import { useUserSetting } from './settings';

export const COLOR_SCHEME = { automatic: 1, dark: 2, light: 3 } as const;

export function themeFor(colorScheme: number, systemDark: boolean): 'light' | 'dark' {
  if (colorScheme === COLOR_SCHEME.dark) return 'dark';
  if (colorScheme === COLOR_SCHEME.light) return 'light';
  return systemDark ? 'dark' : 'light';
}

function useSystemDark(): boolean {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const on = () => setDark(query.matches);
    query.addEventListener('change', on);
    return () => query.removeEventListener('change', on);
  }, [query?.media]);
  return dark;
}

/** The theme shown now (for the toggle in the personal menu). */
export function useTheme(): 'light' | 'dark' {
  const scheme = useUserSetting('color_scheme', COLOR_SCHEME.automatic);
  return themeFor(scheme, useSystemDark());
}

export function useApplyTheme(): void {
  const theme = useTheme();
  const dense = useUserSetting('dense_mode', false);
  const fontSize = useUserSetting('web_font_size_px', 0);
  const lineHeight = useUserSetting('web_line_height_percent', 0);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.dataset.density = dense ? 'dense' : 'normal';
    if (fontSize) root.style.setProperty('--base-font-size', `${fontSize}px`);
    else root.style.removeProperty('--base-font-size');
    if (lineHeight) root.style.setProperty('--base-line-height', `${lineHeight / 100}`);
    else root.style.removeProperty('--base-line-height');
  }, [theme, dense, fontSize, lineHeight]);
}
