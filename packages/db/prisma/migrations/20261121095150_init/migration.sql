-- CreateTable
CREATE TABLE "realms" (
    "id" SERIAL NOT NULL,
    "string_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "icon_url" TEXT,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "topics_policy" TEXT NOT NULL DEFAULT 'allow_empty_topic',
    "allow_edit_history" BOOLEAN NOT NULL DEFAULT true,
    "settings" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "realms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "delivery_email" TEXT NOT NULL,
    "full_name" TEXT NOT NULL,
    "role" INTEGER NOT NULL DEFAULT 400,
    "is_bot" BOOLEAN NOT NULL DEFAULT false,
    "bot_type" INTEGER,
    "bot_owner_id" INTEGER,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "is_imported_stub" BOOLEAN NOT NULL DEFAULT false,
    "api_key" TEXT NOT NULL,
    "date_joined" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "timezone" TEXT NOT NULL DEFAULT '',
    "avatar_source" TEXT NOT NULL DEFAULT 'G',
    "avatar_version" INTEGER NOT NULL DEFAULT 1,
    "settings" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_groups" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "is_system_group" BOOLEAN NOT NULL DEFAULT false,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "creator_id" INTEGER,

    CONSTRAINT "user_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_group_members" (
    "group_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "user_group_members_pkey" PRIMARY KEY ("group_id","user_id")
);

-- CreateTable
CREATE TABLE "user_group_subgroups" (
    "supergroup_id" INTEGER NOT NULL,
    "subgroup_id" INTEGER NOT NULL,

    CONSTRAINT "user_group_subgroups_pkey" PRIMARY KEY ("supergroup_id","subgroup_id")
);

-- CreateTable
CREATE TABLE "streams" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rendered_description" TEXT NOT NULL DEFAULT '',
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "creator_id" INTEGER,
    "invite_only" BOOLEAN NOT NULL DEFAULT false,
    "is_web_public" BOOLEAN NOT NULL DEFAULT false,
    "history_public_to_subscribers" BOOLEAN NOT NULL DEFAULT true,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "message_retention_days" INTEGER,
    "topics_policy" TEXT NOT NULL DEFAULT 'inherit',
    "folder_id" INTEGER,
    "stream_post_policy" INTEGER NOT NULL DEFAULT 1,
    "first_message_id" INTEGER,
    "can_add_subscribers_group" JSONB,
    "can_remove_subscribers_group" JSONB,
    "can_send_message_group" JSONB,

    CONSTRAINT "streams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "stream_id" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "color" TEXT NOT NULL DEFAULT '#c2c2c2',
    "is_muted" BOOLEAN NOT NULL DEFAULT false,
    "pin_to_top" BOOLEAN NOT NULL DEFAULT false,
    "desktop_notifications" BOOLEAN,
    "email_notifications" BOOLEAN,
    "push_notifications" BOOLEAN,
    "audible_notifications" BOOLEAN,
    "wildcard_mentions_notify" BOOLEAN,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "direct_conversations" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "member_key" TEXT NOT NULL,
    "member_ids" INTEGER[],

    CONSTRAINT "direct_conversations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "recipient_type" TEXT NOT NULL,
    "stream_id" INTEGER,
    "conversation_id" INTEGER,
    "topic" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "rendered_content" TEXT NOT NULL,
    "sending_client" TEXT NOT NULL DEFAULT 'API',
    "date_sent" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_edit_time" TIMESTAMP(3),
    "last_moved_time" TIMESTAMP(3),
    "edit_history" JSONB,
    "is_me_message" BOOLEAN NOT NULL DEFAULT false,
    "has_attachment" BOOLEAN NOT NULL DEFAULT false,
    "has_image" BOOLEAN NOT NULL DEFAULT false,
    "has_link" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_messages" (
    "user_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "flags" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "user_messages_pkey" PRIMARY KEY ("user_id","message_id")
);

-- CreateTable
CREATE TABLE "reactions" (
    "id" SERIAL NOT NULL,
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "emoji_name" TEXT NOT NULL,
    "emoji_code" TEXT NOT NULL,
    "reaction_type" TEXT NOT NULL,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "realms_string_id_key" ON "realms"("string_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_api_key_key" ON "users"("api_key");

-- CreateIndex
CREATE INDEX "users_realm_id_is_active_idx" ON "users"("realm_id", "is_active");

-- CreateIndex
CREATE UNIQUE INDEX "users_realm_id_email_key" ON "users"("realm_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "user_groups_realm_id_name_key" ON "user_groups"("realm_id", "name");

-- CreateIndex
CREATE INDEX "user_group_members_user_id_idx" ON "user_group_members"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "streams_realm_id_name_key_key" ON "streams"("realm_id", "name_key");

-- CreateIndex
CREATE INDEX "subscriptions_stream_id_active_idx" ON "subscriptions"("stream_id", "active");

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_user_id_stream_id_key" ON "subscriptions"("user_id", "stream_id");

-- CreateIndex
CREATE UNIQUE INDEX "direct_conversations_realm_id_member_key_key" ON "direct_conversations"("realm_id", "member_key");

-- CreateIndex
CREATE INDEX "messages_realm_id_stream_id_topic_id_idx" ON "messages"("realm_id", "stream_id", "topic", "id");

-- CreateIndex
CREATE INDEX "messages_stream_id_id_idx" ON "messages"("stream_id", "id");

-- CreateIndex
CREATE INDEX "messages_conversation_id_id_idx" ON "messages"("conversation_id", "id");

-- CreateIndex
CREATE INDEX "messages_sender_id_id_idx" ON "messages"("sender_id", "id");

-- CreateIndex
CREATE INDEX "user_messages_message_id_idx" ON "user_messages"("message_id");

-- CreateIndex
CREATE UNIQUE INDEX "reactions_message_id_user_id_reaction_type_emoji_code_key" ON "reactions"("message_id", "user_id", "reaction_type", "emoji_code");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_subgroups" ADD CONSTRAINT "user_group_subgroups_supergroup_id_fkey" FOREIGN KEY ("supergroup_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_group_subgroups" ADD CONSTRAINT "user_group_subgroups_subgroup_id_fkey" FOREIGN KEY ("subgroup_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "streams" ADD CONSTRAINT "streams_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "streams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_fkey" FOREIGN KEY ("sender_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "streams"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "direct_conversations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
