-- CreateTable
CREATE TABLE "bot_services" (
    "id" SERIAL NOT NULL,
    "bot_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "base_url" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "interface" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "bot_services_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bot_services_bot_id_idx" ON "bot_services"("bot_id");
