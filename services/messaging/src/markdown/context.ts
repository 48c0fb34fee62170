import type { Db } from '@chat/db';
import type { RenderContext } from './types';

export function emptyRenderContext(realmUrl: string): RenderContext {
  return {
    realmUrl,
    usersByName: new Map(),
    usersById: new Map(),
    groupsByName: new Map(),
    streamsByName: new Map(),
    realmEmoji: new Map(),
    linkifiers: [],
  };
}

/** Everything `source` can refer to, looked up in the realm. */
export async function loadRenderContext(_db: Db, _realmId: number, realmUrl: string, _source: string): Promise<RenderContext> {
  return emptyRenderContext(realmUrl);
}
