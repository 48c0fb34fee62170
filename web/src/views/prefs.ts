/** View preferences kept in this browser (collapsed inbox folders, recent conversations' filters). */
import { useState } from 'react';

export function usePersistent<T>(key: string, initial: T): [T, (v: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = localStorage.getItem(key);
      return raw ? { ...initial, ...JSON.parse(raw) } : initial;
    } catch {
      return initial;
    }
  });
  const set = (v: T) => {
    setValue(v);
    try {
      localStorage.setItem(key, JSON.stringify(v));
    } catch {
      // Private mode or full storage: the choice lasts for this page.
    }
  };
  return [value, set];
}
