-- CreateTable
CREATE TABLE "realm_emoji" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "author_id" INTEGER,
    "name" TEXT NOT NULL,
    "file_name" TEXT,
    "is_animated" BOOLEAN NOT NULL DEFAULT false,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "date_created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "realm_emoji_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "realm_emoji_realm_id_name_idx" ON "realm_emoji"("realm_id", "name");
