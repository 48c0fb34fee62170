-- AlterTable
ALTER TABLE "multiuse_invites" ADD COLUMN     "created_user_id" INTEGER,
ADD COLUMN     "email" TEXT,
ADD COLUMN     "notify_referrer_on_join" BOOLEAN NOT NULL DEFAULT false;
