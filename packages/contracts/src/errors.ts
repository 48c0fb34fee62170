/**
 * The one error catalogue. Every error a service can answer with is built here, so codes,
 * HTTP statuses and messages stay identical across services and match what clients of this
 * API family already handle. Handlers only throw; packages/kit renders the envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toJSON(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }
}

const bad = (msg: string, extra: Record<string, unknown> = {}) => new ApiError('BAD_REQUEST', msg, 400, extra);

/** One address an invitation request could not invite: [address, reason, deactivated account]. */
export type InviteFailure = [email: string, reason: string, deactivated: boolean];

const invitationFailed = (msg: string, failures: InviteFailure[], sent: boolean) =>
  new ApiError('INVITATION_FAILED', msg, 400, {
    errors: failures,
    sent_invitations: sent,
    license_limit_reached: false,
    daily_limit_reached: false,
  });

export const errors = {
  badRequest: bad,
  missingArgument: (name: string) =>
    new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name }),
  invalidArgument: (name: string, why = `Invalid ${name}`) =>
    new ApiError('BAD_REQUEST', why, 400, { var_name: name }),
  confusingArguments: (a: string, b: string) =>
    new ApiError('REQUEST_CONFUSING_VAR', `Can't decide between '${a}' and '${b}' arguments`, 400),
  invalidJson: (name: string) => new ApiError('INVALID_JSON', `Argument "${name}" is not valid JSON.`, 400),
  malformedJsonBody: () => new ApiError('INVALID_JSON', 'Malformed JSON', 400),
  notLoggedIn: () =>
    new ApiError('UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401),
  missingAuthHeader: () =>
    new ApiError('UNAUTHORIZED', 'Missing authorization header for basic auth', 401),
  invalidAuthHeader: () =>
    new ApiError('UNAUTHORIZED', 'Invalid authorization header for basic auth', 401),
  basicAuthRequired: () => new ApiError('UNAUTHORIZED', 'This endpoint requires HTTP basic authentication.', 401),
  invalidApiKey: () => new ApiError('INVALID_API_KEY', 'Invalid API key', 401),
  userDeactivated: () => new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401),
  authenticationFailed: () =>
    new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401),
  passwordAuthDisabled: () =>
    new ApiError('PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization', 401),
  realmDeactivated: () => new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401),
  nonexistentRealm: () =>
    new ApiError('NONEXISTENT_SUBDOMAIN', 'There is no organization at this address.', 404),
  missingIdentity: () =>
    new ApiError('UNAUTHORIZED', 'Request did not come through the gateway', 401),
  /**
   * An unsafe request made with a browser session (the web app's `/json/...`) without a good
   * X-CSRFToken: the family's CsrfFailureError, whose reason is Django's.
   */
  csrfFailed: (reason: string) => new ApiError('CSRF_FAILED', `CSRF error: ${reason}`, 403, { reason }),
  /** An account page's form posted without its token, or with another session's. */
  csrfFormFailed: () =>
    new ApiError('CSRF_FAILED', 'CSRF verification failed: the form was missing its token or it did not match. Reload the page and try again.', 403),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429, { 'retry-after': retryAfterSeconds }),
  notFound: (msg = 'Not Found') => new ApiError('NOT_FOUND', msg, 404),
  methodNotAllowed: (allowed: string[]) =>
    new ApiError('BAD_REQUEST', 'Method Not Allowed', 405, { allowed_methods: allowed }),
  insufficientPermission: () => bad('Insufficient permission'),
  mustBeAdmin: () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator', 400),
  mustBeOwner: () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner', 400),
  streamDoesNotExist: (stream: string) =>
    new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${stream}' does not exist`, 400, { stream }),
  streamIdDoesNotExist: (streamId: number) =>
    new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${streamId}' does not exist`, 400, {
      stream_id: streamId,
    }),
  channelAlreadyExists: (name: string) =>
    new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`, 409, { channel_name: name }),
  invalidStreamId: () => bad('Invalid channel ID'),
  invalidMessage: () => bad('Invalid message(s)'),
  badNarrowOperator: (desc: string) => new ApiError('BAD_NARROW', `Invalid narrow operator: ${desc}`, 400),
  badNarrowCombination: (desc: string) => new ApiError('BAD_NARROW', `Invalid narrow operator combination: ${desc}`, 400),
  tooManyMessagesRequested: (max: number) => bad(`Too many messages requested (maximum ${max}).`),
  incompatibleParameters: (names: string[]) =>
    new ApiError('BAD_REQUEST', `Unsupported parameter combination: ${names.join(', ')}`, 400, { parameters: names.join(', ') }),
  badEventQueueId: (queueId: string) =>
    new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId }),
  streamWildcardMentionNotAllowed: () =>
    new ApiError(
      'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      'You do not have permission to use channel wildcard mentions in this channel.',
      400,
    ),
  topicWildcardMentionNotAllowed: () =>
    new ApiError(
      'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      'You do not have permission to use topic wildcard mentions in this topic.',
      400,
    ),
  reactionDoesNotExist: () => new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.", 400),
  reactionAlreadyExists: () => new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.', 400),
  resourceNotFound: (msg: string) => new ApiError('NOT_FOUND', msg, 404),
  pushServiceNotConfigured: () =>
    new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.', 400),
  noActivePushDevice: () => new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device', 400),
  invalidPushDeviceToken: () => new ApiError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized', 400),
  invalidRemotePushDeviceToken: () =>
    new ApiError('INVALID_REMOTE_PUSH_DEVICE_TOKEN', 'Device not recognized by the push bouncer', 400),
  // Statuses are the ones clients of this API family already handle for the push relay.
  adminActionRequired: () =>
    new ApiError(
      'ADMIN_ACTION_REQUIRED',
      'Push notification configuration issue on server, contact the server administrator or retry later.',
      403,
    ),
  failedToConnectBouncer: () =>
    new ApiError('FAILED_TO_CONNECT_BOUNCER', 'Network error while connecting to the push notification service.', 502),
  internalServerErrorOnBouncer: () =>
    new ApiError(
      'INTERNAL_SERVER_ERROR_ON_BOUNCER',
      'Internal server error on the push notification service, retry later.',
      502,
    ),
  botsNotAllowed: () => bad('This endpoint does not accept bot requests.'),
  unknownOnboardingStep: (name: string) => bad(`Unknown onboarding_step: ${name}`),
  emailChangesDisabled: () => bad('Email address changes are disabled in this organization.'),
  // Uploads, attachments and avatars.
  noFileUploaded: () => bad('You must specify a file to upload'),
  oneFileAtATime: () => bad('You may only upload one file at a time'),
  fileTooLarge: (maxMib: number) =>
    new ApiError('BAD_REQUEST', `Uploaded file is larger than the allowed limit of ${maxMib} MiB`, 413),
  fileNotFound: () => new ApiError('NOT_FOUND', 'File not found', 404),
  uploadQuotaExceeded: () =>
    new ApiError('REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.", 400),
  fileAccessDenied: () => new ApiError('BAD_REQUEST', 'You are not authorized to view this file.', 403),
  // The image proxy (/external_content/): a bad signature in the family's words, and an image
  // it would not or could not pass on (docs/uploads.md).
  invalidExternalContentUrl: () => new ApiError('BAD_REQUEST', 'Not a valid URL.', 403),
  externalImageUnavailable: (why: string, status: number) => new ApiError('BAD_REQUEST', `Could not fetch the image: ${why}`, status),
  invalidAttachment: () => bad('Invalid attachment'),
  invalidUploadToken: () => bad('Invalid token'),
  exactlyOneAvatar: () => bad('You must upload exactly one avatar.'),
  avatarChangesDisabled: () => bad('Avatar changes are disabled in this organization.'),
  badImage: () => bad('Could not decode image; did you upload an image file?'),
  invalidUserId: () => bad('Invalid user ID'),
  upstreamUnavailable: () => new ApiError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', 503),
  // Email invitations. `errors` lists [address, reason, deactivated] per refused address;
  // `sent_invitations` says whether the others were invited. The texts (the brand name
  // included) are the ones clients of this API family show.
  invitesInvalid: (failures: InviteFailure[]) =>
    invitationFailed("Some emails did not validate, so we didn't send any invitations.", failures, false),
  invitesNoneSent: (failures: InviteFailure[]) => invitationFailed("We weren't able to invite anyone.", failures, false),
  invitesSomeSkipped: (failures: InviteFailure[]) =>
    invitationFailed(
      "Some of those addresses already have an account here, so we didn't send them an invitation. We did send invitations to everyone else!",
      failures,
      true,
    ),
  inviterTooNew: () =>
    invitationFailed(
      'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
      [],
      false,
    ),
  invitesDailyLimit: () =>
    new ApiError(
      'INVITATION_FAILED',
      'To protect users, this server limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      400,
      { errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true },
    ),
  // Incoming webhooks (docs/integrations.md), in the family's words.
  missingWebhookEventHeader: (header: string) =>
    new ApiError('MISSING_HTTP_EVENT_HEADER', `Missing the HTTP event header '${header}'`, 400, { header }),
  webhookSignatureFailed: () => bad('Webhook signature verification failed.'),
  webhookPayloadMalformed: (webhookName: string) => bad(`Malformed payload for the ${webhookName} webhook`),
  invalidIntegration: (name: string) => bad(`Invalid integration '${name}'.`),
  internal: () => new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error', 500),
} as const;
