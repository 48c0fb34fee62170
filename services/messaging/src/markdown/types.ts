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
  /** Keyed by lower-cased full name; several users may share a name. */
  usersByName: Map<string, MentionableUser[]>;
  usersById: Map<number, MentionableUser>;
  groupsByName: Map<string, MentionableGroup>;
  streamsByName: Map<string, LinkableStream>;
  realmEmoji: Map<string, RealmEmoji>;
  linkifiers: Linkifier[];
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
}

/** markdown-it types `env` loosely; every rule of ours receives a RenderEnv. */
export const envOf = (env: unknown) => env as RenderEnv;
