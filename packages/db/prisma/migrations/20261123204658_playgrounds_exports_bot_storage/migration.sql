-- CreateTable
CREATE TABLE "realm_playgrounds" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "pygments_language" VARCHAR(40) NOT NULL,
    "url_template" TEXT NOT NULL,

    CONSTRAINT "realm_playgrounds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "realm_exports" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "acting_user_id" INTEGER NOT NULL,
    "export_type" INTEGER NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 1,
    "date_requested" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "date_succeeded" TIMESTAMP(3),
    "date_failed" TIMESTAMP(3),
    "date_deleted" TIMESTAMP(3),
    "export_path" TEXT,
    "tarball_size_bytes" INTEGER,

    CONSTRAINT "realm_exports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_storage_data" (
    "id" SERIAL NOT NULL,
    "bot_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "bot_storage_data_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "realm_playgrounds_realm_id_pygments_language_name_key" ON "realm_playgrounds"("realm_id", "pygments_language", "name");

-- CreateIndex
CREATE INDEX "realm_exports_realm_id_date_requested_idx" ON "realm_exports"("realm_id", "date_requested");

-- CreateIndex
CREATE UNIQUE INDEX "bot_storage_data_bot_id_key_key" ON "bot_storage_data"("bot_id", "key");
