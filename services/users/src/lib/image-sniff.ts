/**
 * Whether bytes start like an image the uploads service can decode (PNG, JPEG, GIF, WebP, TIFF,
 * AVIF, SVG). This service does not decode images: it refuses what is plainly not one
 * before creating anything, and the uploads service, which renders the avatar, has the last word.
 */
export function looksLikeImage(data: Buffer): boolean {
  const starts = (...bytes: number[]) => bytes.every((b, i) => data[i] === b);
  const ascii = (from: number, text: string) => data.subarray(from, from + text.length).toString('latin1') === text;
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return true; // PNG
  if (starts(0xff, 0xd8, 0xff)) return true; // JPEG
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return true;
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return true;
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return true; // TIFF
  if (ascii(4, 'ftyp') && /^(avif|avis)$/.test(data.subarray(8, 12).toString('latin1'))) return true;
  const head = data.subarray(0, 1024).toString('utf8').trimStart();
  return (head.startsWith('<?xml') || head.startsWith('<svg')) && head.includes('<svg');
}
