-- CreateTable
CREATE TABLE "scheduled_messages" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "delivery_type" INTEGER NOT NULL,
    "recipient_type" TEXT NOT NULL,
    "stream_id" INTEGER,
    "to_user_ids" INTEGER[],
    "topic" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "rendered_content" TEXT NOT NULL,
    "scheduled_timestamp" TIMESTAMP(3) NOT NULL,
    "read_by_sender" BOOLEAN NOT NULL DEFAULT false,
    "sending_client" TEXT NOT NULL,
    "realm_url" TEXT NOT NULL,
    "delivered" BOOLEAN NOT NULL DEFAULT false,
    "delivered_message_id" INTEGER,
    "failed" BOOLEAN NOT NULL DEFAULT false,
    "failure_message" TEXT,
    "reminder_target_message_id" INTEGER,
    "reminder_note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "scheduled_messages_delivered_failed_scheduled_timestamp_idx" ON "scheduled_messages"("delivered", "failed", "scheduled_timestamp");

-- CreateIndex
CREATE INDEX "scheduled_messages_sender_id_delivery_type_delivered_schedu_idx" ON "scheduled_messages"("sender_id", "delivery_type", "delivered", "scheduled_timestamp");
