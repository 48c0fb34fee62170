-- CreateTable
CREATE TABLE "user_special_permissions" (
    "user_id" INTEGER NOT NULL,
    "can_change_user_emails" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "user_special_permissions_pkey" PRIMARY KEY ("user_id")
);
