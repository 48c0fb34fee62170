-- CreateTable
CREATE TABLE "user_presence" (
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "last_connected_time" TIMESTAMP(3),
    "last_active_time" TIMESTAMP(3),
    "last_update_id" BIGINT NOT NULL,

    CONSTRAINT "user_presence_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "presence_sequences" (
    "realm_id" INTEGER NOT NULL,
    "last_update_id" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "presence_sequences_pkey" PRIMARY KEY ("realm_id")
);

-- CreateIndex
CREATE INDEX "user_presence_realm_id_last_update_id_idx" ON "user_presence"("realm_id", "last_update_id");

-- CreateIndex
CREATE INDEX "user_presence_realm_id_last_connected_time_idx" ON "user_presence"("realm_id", "last_connected_time");
