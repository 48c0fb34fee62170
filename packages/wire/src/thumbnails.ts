/**
 * Image thumbnails: the formats the uploads service makes of every uploaded image, in the shape
 * of register's `server_thumbnail_formats`, and which uploads count as images. One list, so that
 * what clients are told, what is made and what rendered messages name cannot disagree.
 */

export interface ThumbnailFormat {
  /** The last path component of a thumbnail's URL: `/user_uploads/thumbnail/<path id>/<name>`. */
  name: string;
  max_width: number;
  max_height: number;
  /** The file extension. */
  format: string;
  /** Made only of animated images. */
  animated: boolean;
}

/**
 * The family's THUMBNAIL_OUTPUT_FORMATS, in its order: the first animated and the first still
 * format are what a rendered message shows (an animated image's animated one).
 */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
  { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
];

/**
 * Content types that are read as images, thumbnailed and previewed in messages: the family's
 * THUMBNAIL_ACCEPT_IMAGE_TYPES. Anything else uploaded stays a plain link.
 */
export const THUMBNAIL_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/avif', 'image/gif', 'image/heic', 'image/jpeg', 'image/png', 'image/tiff', 'image/webp',
]);

/** The format a message shows of an image: its animated one for an animation. */
export function defaultThumbnailFormat(animated: boolean): ThumbnailFormat {
  return THUMBNAIL_FORMATS.find((f) => f.animated === animated) ?? THUMBNAIL_FORMATS[0]!;
}
