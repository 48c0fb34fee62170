-- CreateTable
CREATE TABLE "send_keys" (
    "sender_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "message_id" INTEGER NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "send_keys_pkey" PRIMARY KEY ("sender_id","key")
);

-- CreateIndex
CREATE INDEX "send_keys_created_at_idx" ON "send_keys"("created_at");

-- Written by hand: a key goes with its message.
ALTER TABLE "send_keys" ADD CONSTRAINT "send_keys_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
