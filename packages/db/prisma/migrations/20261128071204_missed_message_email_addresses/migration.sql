-- CreateTable
CREATE TABLE "missed_message_email_addresses" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "email_token" TEXT NOT NULL,
    "channel_id" INTEGER,
    "topic" TEXT,
    "dm_user_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "message_id" INTEGER,
    "timestamp" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "times_used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "missed_message_email_addresses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "missed_message_email_addresses_email_token_key" ON "missed_message_email_addresses"("email_token");

-- CreateIndex
CREATE INDEX "missed_message_email_addresses_timestamp_idx" ON "missed_message_email_addresses"("timestamp");

-- CreateIndex
CREATE INDEX "missed_message_email_addresses_user_id_idx" ON "missed_message_email_addresses"("user_id");
