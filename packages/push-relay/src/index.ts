export { MISSING_REMOTE_REALM, RelayError, type RelayFailureKind } from './errors';
export { relayRequest, type RelayBody, type RelayCall, type RelayCredentials, type RelayEndpoint } from './transport';
export { ensureRealmIdentities, realmUuid, userUuid } from './identity';
export {
  checkRegistrationInput,
  doRegisterPushServer,
  doUploadRealms,
  readRelayServer,
  RegistrationInputError,
  type RegisterOptions,
  type RegisterResult,
  type RegisteredServer,
} from './server';
