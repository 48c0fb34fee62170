-- CreateTable
CREATE TABLE "bot_config_data" (
    "id" SERIAL NOT NULL,
    "bot_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "bot_config_data_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incoming_webhook_notices" (
    "bot_id" INTEGER NOT NULL,
    "notice" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incoming_webhook_notices_pkey" PRIMARY KEY ("bot_id","notice")
);

-- CreateIndex
CREATE UNIQUE INDEX "bot_config_data_bot_id_key_key" ON "bot_config_data"("bot_id", "key");

-- Added by hand: a bot's configuration and notices go with its account.
ALTER TABLE "bot_config_data" ADD CONSTRAINT "bot_config_data_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "incoming_webhook_notices" ADD CONSTRAINT "incoming_webhook_notices_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
