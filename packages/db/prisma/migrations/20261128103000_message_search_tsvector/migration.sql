-- Full-text search reads a stored tsvector column, as the family's server keeps search_tsvector
-- on its message table. With the vector only in an expression index, a search combined with a
-- selective condition (a sender, a channel) had two bad plans: read every match from the index
-- (all of a common word's messages in the realm), or compute to_tsvector for each row along the
-- newest-first scan. A stored column makes the per-row test cheap, so the planner can pick
-- either plan by the word's frequency (ADR 0046).
ALTER TABLE "messages" ADD COLUMN "search_tsvector" tsvector GENERATED ALWAYS AS (to_tsvector('english', "topic" || ' ' || "content")) STORED;
DROP INDEX "messages_search_idx";
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_tsvector");
