-- CreateTable
CREATE TABLE "default_stream_groups" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "stream_ids" INTEGER[],

    CONSTRAINT "default_stream_groups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "default_stream_groups_realm_id_name_key" ON "default_stream_groups"("realm_id", "name");
