-- CreateTable
CREATE TABLE "push_devices" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "device_id" BIGINT NOT NULL,
    "push_key" BYTEA,
    "push_key_id" BIGINT,
    "push_token_kind" TEXT,
    "push_token_id" BIGINT,
    "pending_push_token_id" BIGINT,
    "push_token_last_updated" TIMESTAMP(3),
    "push_registration_error_code" TEXT,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_devices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_device_tokens" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "ios_app_id" TEXT,
    "last_updated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_device_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "push_devices_realm_id_user_id_idx" ON "push_devices"("realm_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "push_devices_user_id_device_id_key" ON "push_devices"("user_id", "device_id");

-- CreateIndex
CREATE UNIQUE INDEX "push_device_tokens_user_id_kind_token_key" ON "push_device_tokens"("user_id", "kind", "token");
