-- AlterTable
ALTER TABLE "streams" ADD COLUMN     "email_token" TEXT;
