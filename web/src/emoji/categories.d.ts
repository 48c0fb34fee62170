/** Made at build time by web/emoji-categories.ts: [category name, space-separated codes] in display order. */
declare module 'virtual:emoji-categories' {
  const table: Array<[string, string]>;
  export default table;
}
