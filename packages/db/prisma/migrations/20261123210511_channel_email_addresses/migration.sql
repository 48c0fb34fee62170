-- CreateTable
CREATE TABLE "channel_email_addresses" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "creator_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "email_token" TEXT NOT NULL,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_email_addresses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "channel_email_addresses_email_token_key" ON "channel_email_addresses"("email_token");

-- CreateIndex
CREATE UNIQUE INDEX "channel_email_addresses_channel_id_creator_id_sender_id_key" ON "channel_email_addresses"("channel_id", "creator_id", "sender_id");
