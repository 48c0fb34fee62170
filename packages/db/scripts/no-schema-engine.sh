#!/bin/sh
# Stand-in for Prisma's native schema engine. `prisma generate` refuses to run unless
# PRISMA_SCHEMA_ENGINE_BINARY names an existing executable, although generating the client never
# calls it. The native engine cannot be downloaded on our offline machines, so migrations are
# diffed with @prisma/schema-engine-wasm (scripts/migration-new.ts) and applied by our own runner
# (src/migrate.ts). See docs/adr/0001-offline-migrations.md.
echo "no-schema-engine.sh: the native Prisma schema engine is not installed here." >&2
echo "Create migrations with 'pnpm --filter @chat/db migration:new <name>' and apply them with migrateDatabase()." >&2
exit 1
