// @chat/wire: API object shapes, built from database rows, shared by the service that changes a
// thing (for the event it records) and the events service (for register's initial state), so
// that clients see one shape in both.
export * from './time';
export * from './realm-objects';
export * from './realm-tools';
export * from './personal-objects';
export * from './groups';
export * from './avatars';
export * from './users';
export * from './streams';
export * from './stream-facts';
export * from './presence';
export * from './scheduled';
export * from './emoji';
export * from './bots';
export * from './mutes-domains';
export * from './devices';
export * from './default-streams';
export * from './onboarding';
export * from './topics';
export * from './server-facts';
export * from './traffic';
export * from './thumbnails';
