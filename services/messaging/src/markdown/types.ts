import type { UrlEmbedData } from './embeds';
import type { UploadPreview } from './upload-previews';

export interface MentionableUser {
  id: number;
  fullName: string;
  email: string;
}

export interface MentionableGroup {
  id: number;
  name: string;
}

export interface LinkableStream {
  id: number;
  name: string;
}

export interface RealmEmoji {
  id: string;
  name: string;
  url: string;
}

export interface Linkifier {
  id: number;
  pattern: string;
  urlTemplate: string;
}

export interface RenderContext {
  realmUrl: string;
  /** The realm's `inline_image_preview`: uploaded images linked from a message are shown. */
  inlineImagePreview: boolean;
  /** Uploaded images the source links to that the author may read, by path id (upload-previews.ts). */
  uploadPreviews: Map<string, UploadPreview>;
  /** The realm's `inline_url_embed_preview`, for a sender who is no bot: pages linked are previewed. */
  urlEmbedPreview: boolean;
  /** Pages' previews the link preview job read (null: nothing to show), by URL (embeds.ts). */
  urlEmbedData: Map<string, UrlEmbedData | null>;
  /** Keyed by lower-cased full name; several users may share a name. */
  usersByName: Map<string, MentionableUser[]>;
  usersById: Map<number, MentionableUser>;
  groupsByName: Map<string, MentionableGroup>;
  streamsByName: Map<string, LinkableStream>;
  realmEmoji: Map<string, RealmEmoji>;
  linkifiers: Linkifier[];
  /** The sender's `translate_emoticons`: `:)` shown as its emoji. */
  translateEmoticons: boolean;
  /** The realm's `default_code_block_language`, for fences that name none ('' for none). */
  defaultCodeBlockLanguage: string;
}

/** Collected while rendering; markdown-it hands `env` to every rule. */
export interface RenderEnv {
  ctx: RenderContext;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** Inside a ```quote block (rendered apart): no previews there, as in a > quote. */
  quoteDepth: number;
  /** Links already previewed: each URL once per message, nested renders included. */
  previewedUrls: Set<string>;
  /** External links to preview whose page has not been read yet (urlEmbedData has no entry). */
  linksForPreview: Set<string>;
}

export interface RenderResult {
  html: string;
  isMeMessage: boolean;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** Pages the link preview job is to read, then render the message again with (workers/link-previews.ts). */
  linksForPreview: string[];
}

/** markdown-it types `env` loosely; every rule of ours receives a RenderEnv. */
export const envOf = (env: unknown) => env as RenderEnv;
