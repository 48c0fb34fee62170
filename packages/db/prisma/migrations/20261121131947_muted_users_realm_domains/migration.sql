-- CreateTable
CREATE TABLE "muted_users" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "muted_user_id" INTEGER NOT NULL,
    "date_muted" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "muted_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "realm_domains" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "domain" TEXT NOT NULL,
    "allow_subdomains" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "realm_domains_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "muted_users_muted_user_id_idx" ON "muted_users"("muted_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "muted_users_user_id_muted_user_id_key" ON "muted_users"("user_id", "muted_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "realm_domains_realm_id_domain_key" ON "realm_domains"("realm_id", "domain");
