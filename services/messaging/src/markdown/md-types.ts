// markdown-it's CommonJS typings export the constructor; the instance and rule types are
// derived from it here once.
import MarkdownIt from 'markdown-it';

export type Md = InstanceType<typeof MarkdownIt>;
export type RenderRule = NonNullable<Md['renderer']['rules']['fence']>;
export type InlineRule = Parameters<Md['inline']['ruler']['push']>[1];
export type StateInline = Parameters<InlineRule>[0];
export type BlockRule = Parameters<Md['block']['ruler']['push']>[1];
export type CoreRule = Parameters<Md['core']['ruler']['push']>[1];
export type StateCore = Parameters<CoreRule>[0];
export type Token = StateCore['tokens'][number];
