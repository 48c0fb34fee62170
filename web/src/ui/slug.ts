/** A name as it reads in a link (`#narrow/dm/4-Othello-the-Moor-of-Venice`): words joined by hyphens. */
export function nameSlug(name: string): string {
  return name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'user';
}
