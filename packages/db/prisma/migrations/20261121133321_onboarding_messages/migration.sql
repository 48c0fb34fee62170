-- CreateTable
CREATE TABLE "onboarding_messages" (
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "message_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "onboarding_messages_pkey" PRIMARY KEY ("user_id","kind")
);
