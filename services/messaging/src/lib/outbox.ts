// The bus package's write side of the outbox, imported from one place.
export { recordEvent } from '@chat/bus';
