-- AlterTable
ALTER TABLE "user_groups" ADD COLUMN     "can_add_members_group" JSONB,
ADD COLUMN     "can_join_group" JSONB,
ADD COLUMN     "can_leave_group" JSONB,
ADD COLUMN     "can_manage_group" JSONB,
ADD COLUMN     "can_mention_group" JSONB,
ADD COLUMN     "can_remove_members_group" JSONB;
