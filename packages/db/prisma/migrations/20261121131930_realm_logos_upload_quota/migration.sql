-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "custom_upload_quota_gb" INTEGER,
ADD COLUMN     "logo_url" TEXT,
ADD COLUMN     "night_logo_url" TEXT;
