/**
 * One request started from a button, with its outcome in words: "working" while it runs, then
 * the success message or the server's refusal. The screens show it beside the control.
 */
import { useCallback, useState } from 'react';
import { errorText } from '../../api';

export interface ActionState {
  busy: boolean;
  ok?: string;
  error?: string;
}

export function useAction() {
  const [state, setState] = useState<ActionState>({ busy: false });
  const run = useCallback((request: () => Promise<unknown>, okText?: string, then?: () => void) => {
    setState({ busy: true });
    request().then(
      () => {
        setState({ busy: false, ok: okText });
        then?.();
      },
      (err: unknown) => setState({ busy: false, error: errorText(err) }),
    );
  }, []);
  const clear = useCallback(() => setState({ busy: false }), []);
  return { state, run, clear };
}
