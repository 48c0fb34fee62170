-- CreateTable
CREATE TABLE "push_relay_server" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "relay_url" TEXT NOT NULL,
    "uuid" TEXT NOT NULL,
    "api_key" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "contact_email" TEXT NOT NULL,
    "registered_at" TIMESTAMP(3),
    "realms_synced_at" TIMESTAMP(3),

    CONSTRAINT "push_relay_server_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_relay_realms" (
    "realm_id" INTEGER NOT NULL,
    "uuid" TEXT NOT NULL,
    "uuid_owner_secret" TEXT NOT NULL,
    "can_push" BOOLEAN,
    "expected_end_timestamp" BIGINT,
    "synced_at" TIMESTAMP(3),

    CONSTRAINT "push_relay_realms_pkey" PRIMARY KEY ("realm_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "push_relay_server_uuid_key" ON "push_relay_server"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "push_relay_realms_uuid_key" ON "push_relay_realms"("uuid");
