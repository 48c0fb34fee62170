-- CreateTable
CREATE TABLE "custom_profile_fields" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "hint" TEXT NOT NULL DEFAULT '',
    "field_type" INTEGER NOT NULL,
    "field_data" JSONB NOT NULL DEFAULT '{}',
    "order" INTEGER NOT NULL,
    "display_in_profile_summary" BOOLEAN NOT NULL DEFAULT false,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "editable_by_user" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "custom_profile_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_profile_field_values" (
    "id" SERIAL NOT NULL,
    "field_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "rendered_value" TEXT,

    CONSTRAINT "custom_profile_field_values_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_statuses" (
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "status_text" TEXT NOT NULL DEFAULT '',
    "emoji_name" TEXT NOT NULL DEFAULT '',
    "emoji_code" TEXT NOT NULL DEFAULT '',
    "reaction_type" TEXT NOT NULL DEFAULT 'unicode_emoji',
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_statuses_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "channel_folders" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rendered_description" TEXT NOT NULL DEFAULT '',
    "order" INTEGER NOT NULL DEFAULT 0,
    "creator_id" INTEGER,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "channel_folders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "multiuse_invites" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "referred_by_id" INTEGER NOT NULL,
    "invite_as" INTEGER NOT NULL,
    "stream_ids" INTEGER[],
    "group_ids" INTEGER[],
    "include_realm_default_subscriptions" BOOLEAN NOT NULL DEFAULT false,
    "welcome_message_custom_text" TEXT,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3),
    "revoked" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "multiuse_invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "linkifiers" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "url_template" TEXT NOT NULL,
    "reverse_template" TEXT,
    "alternative_url_templates" TEXT[],
    "example_input" TEXT,
    "order" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "linkifiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "navigation_views" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "fragment" TEXT NOT NULL,
    "is_pinned" BOOLEAN NOT NULL,
    "name" TEXT,

    CONSTRAINT "navigation_views_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_snippets" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_snippets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_words" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "word" TEXT NOT NULL,

    CONSTRAINT "alert_words_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "realm_jwt_configs" (
    "realm_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "algorithms" TEXT[],

    CONSTRAINT "realm_jwt_configs_pkey" PRIMARY KEY ("realm_id")
);

-- CreateIndex
CREATE INDEX "custom_profile_fields_realm_id_order_idx" ON "custom_profile_fields"("realm_id", "order");

-- CreateIndex
CREATE INDEX "custom_profile_field_values_field_id_idx" ON "custom_profile_field_values"("field_id");

-- CreateIndex
CREATE UNIQUE INDEX "custom_profile_field_values_user_id_field_id_key" ON "custom_profile_field_values"("user_id", "field_id");

-- CreateIndex
CREATE INDEX "user_statuses_realm_id_idx" ON "user_statuses"("realm_id");

-- CreateIndex
CREATE INDEX "channel_folders_realm_id_idx" ON "channel_folders"("realm_id");

-- CreateIndex
CREATE UNIQUE INDEX "multiuse_invites_key_key" ON "multiuse_invites"("key");

-- CreateIndex
CREATE INDEX "multiuse_invites_realm_id_idx" ON "multiuse_invites"("realm_id");

-- CreateIndex
CREATE INDEX "linkifiers_realm_id_order_idx" ON "linkifiers"("realm_id", "order");

-- CreateIndex
CREATE UNIQUE INDEX "linkifiers_realm_id_pattern_key" ON "linkifiers"("realm_id", "pattern");

-- CreateIndex
CREATE UNIQUE INDEX "navigation_views_user_id_fragment_key" ON "navigation_views"("user_id", "fragment");

-- CreateIndex
CREATE INDEX "saved_snippets_user_id_idx" ON "saved_snippets"("user_id");

-- CreateIndex
CREATE INDEX "alert_words_realm_id_idx" ON "alert_words"("realm_id");

-- CreateIndex
CREATE UNIQUE INDEX "alert_words_user_id_word_key" ON "alert_words"("user_id", "word");

-- AddForeignKey
ALTER TABLE "custom_profile_field_values" ADD CONSTRAINT "custom_profile_field_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_profile_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;
