-- AlterTable
ALTER TABLE "streams" ADD COLUMN     "can_administer_channel_group" JSONB,
ADD COLUMN     "can_delete_any_message_group" JSONB,
ADD COLUMN     "can_delete_own_message_group" JSONB,
ADD COLUMN     "can_move_messages_out_of_channel_group" JSONB,
ADD COLUMN     "can_move_messages_within_channel_group" JSONB,
ADD COLUMN     "can_resolve_topics_group" JSONB,
ADD COLUMN     "can_subscribe_group" JSONB;
