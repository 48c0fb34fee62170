/** A channel's mark (lock, globe or #) in its colour; decorative, its privacy is said in words beside it. */
import { ChannelIcon } from '../../ui/Icon';

export function ChannelMark({ channel }: { channel: { color?: string; invite_only?: boolean; is_web_public?: boolean } }) {
  return <ChannelIcon sub={{ color: channel.color ?? 'currentColor', invite_only: !!channel.invite_only, is_web_public: channel.is_web_public }} />;
}
