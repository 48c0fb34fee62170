-- The people of a realm who get emails for channel messages by default: few in any realm, and
-- the missed-message consumer asks for them among a message's recipients on every channel
-- message. Without this index that question reads every recipient's settings.
CREATE INDEX "users_stream_email_idx" ON "users" ("realm_id") WHERE ("settings"->>'enable_stream_email_notifications') = 'true';
