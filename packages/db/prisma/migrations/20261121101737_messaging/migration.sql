-- CreateTable
CREATE TABLE "drafts" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "stream_id" INTEGER,
    "to_user_ids" INTEGER[],
    "topic" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "last_edit_time" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "drafts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_topics" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "stream_id" INTEGER NOT NULL,
    "topic_name" TEXT NOT NULL,
    "topic_key" TEXT NOT NULL,
    "visibility_policy" INTEGER NOT NULL,
    "last_updated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_topics_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "drafts_user_id_last_edit_time_idx" ON "drafts"("user_id", "last_edit_time");

-- CreateIndex
CREATE INDEX "user_topics_stream_id_topic_key_idx" ON "user_topics"("stream_id", "topic_key");

-- CreateIndex
CREATE UNIQUE INDEX "user_topics_user_id_stream_id_topic_key_key" ON "user_topics"("user_id", "stream_id", "topic_key");

-- Hand-written: indexes on core tables that GET /messages narrows rely on and that Prisma's
-- schema language cannot express.

-- Full-text search (narrow `search`): the expression must match SEARCH_VECTOR_SQL in
-- services/messaging/src/lib/narrow.ts exactly for the planner to use it.
CREATE INDEX "messages_search_idx" ON "messages" USING gin (to_tsvector('english', "topic" || ' ' || "content"));

-- Topic narrows compare topics case-insensitively.
CREATE INDEX "messages_stream_id_lower_topic_id_idx" ON "messages" ("stream_id", lower("topic"), "id");

-- is:unread / first_unread, is:starred and is:mentioned over a user's own history: partial
-- indexes stay small because few of a user's rows are unread, starred or mentions.
CREATE INDEX "user_messages_unread_idx" ON "user_messages" ("user_id", "message_id") WHERE ("flags" & 1) = 0;
CREATE INDEX "user_messages_starred_idx" ON "user_messages" ("user_id", "message_id") WHERE ("flags" & 2) <> 0;
CREATE INDEX "user_messages_mentioned_idx" ON "user_messages" ("user_id", "message_id") WHERE ("flags" & 56) <> 0;
