-- Hand-written. The planner cannot estimate how many rows a bitmask test like (flags & 2) <> 0
-- keeps, and without an estimate it guesses "almost all", so a starred or mentioned narrow over
-- a user's history merge-joins the whole messages table instead of walking the small partial
-- index. Expression statistics give it the real distribution of each bit group we filter on.
CREATE STATISTICS "user_messages_read_starred_stats" ON ("flags" & 1), ("flags" & 2) FROM "user_messages";
CREATE STATISTICS "user_messages_mentioned_stats" ON ("flags" & 56) FROM "user_messages";
ANALYZE "user_messages";
