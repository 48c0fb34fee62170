-- Written by hand: the rows of direct messages of each user (flag bit is_private, 256), as the
-- recent_private_conversations of register reads them. Without it that read walks every message
-- the user has.
CREATE INDEX "user_messages_private_idx" ON "user_messages" ("user_id", "message_id") WHERE ("flags" & 256) <> 0;
