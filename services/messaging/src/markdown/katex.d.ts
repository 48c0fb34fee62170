// KaTeX 0.16 declares its types through package.json "exports" only, which this project's
// module resolution does not read: the same declarations, by path.
declare module 'katex' {
  import * as katex from 'katex/types/katex';
  export = katex;
}
