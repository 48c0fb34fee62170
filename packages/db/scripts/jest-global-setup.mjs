// Jest globalSetup: (re)generate the Prisma client when the schema changed, before any test
// file imports it. Other packages' jest configs can point at this file too.
import { ensureGenerated } from './generate.mjs';

export default async function globalSetup() {
  ensureGenerated({ quiet: true });
}
