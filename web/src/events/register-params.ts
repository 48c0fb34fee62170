/**
 * What the web app asks of POST /register: kept apart from the event loop (which needs a
 * browser) so the fixture exporter (e2e/lib/web-state-fixtures.ts) registers exactly as the
 * app does.
 */
export const REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  include_subscribers: 'partial',
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
    user_list_incomplete: false,
    include_deactivated_groups: true,
    archived_channels: true,
    simplified_presence_events: true,
  },
};
