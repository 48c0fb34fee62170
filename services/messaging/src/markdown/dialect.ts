import type { Md } from './md-types';
import { envOf } from './types';

/** Installs the dialect's extensions on a parser. */
export function installDialect(md: Md): void {
  // Links open in a new tab and are noted for the has:link narrow.
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    envOf(env).hasLink = true;
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
}
