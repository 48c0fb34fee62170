import type { Services } from '../context';
import { b64TokenId, recordDeviceEvent } from './device-events';
import { decodeStandardBase64, tokenIdFromBytes } from '../lib/codec';
import type { RelayRegistrationJob } from '../lib/jobs';

/**
 * Outcomes of handing a token to the relay. Each applies only while the device still waits for
 * that very token: a client that rotated its token again meanwhile has a newer job coming.
 */

function pendingId(job: RelayRegistrationJob): bigint {
  return tokenIdFromBytes(decodeStandardBase64(job.tokenId)!);
}

export async function doCompleteRegistration(services: Services, job: RelayRegistrationJob): Promise<void> {
  const tokenId = pendingId(job);
  await services.db.$transaction(async (tx) => {
    const updated = await tx.pushDevice.updateMany({
      where: { userId: job.userId, deviceId: BigInt(job.deviceId), pendingPushTokenId: tokenId },
      data: { pushTokenId: tokenId, pendingPushTokenId: null, pushTokenKind: job.tokenKind, pushRegistrationErrorCode: null },
    });
    if (updated.count === 0) return;
    await recordDeviceEvent(tx, job.realmId, job.userId, {
      type: 'device',
      op: 'update',
      device_id: job.deviceId,
      push_token_id: b64TokenId(tokenId),
      pending_push_token_id: null,
    });
  });
}

export async function doFailRegistration(services: Services, job: RelayRegistrationJob, errorCode: string): Promise<void> {
  const tokenId = pendingId(job);
  await services.db.$transaction(async (tx) => {
    const updated = await tx.pushDevice.updateMany({
      where: { userId: job.userId, deviceId: BigInt(job.deviceId), pendingPushTokenId: tokenId },
      data: { pushRegistrationErrorCode: errorCode },
    });
    if (updated.count === 0) return;
    await recordDeviceEvent(tx, job.realmId, job.userId, {
      type: 'device',
      op: 'update',
      device_id: job.deviceId,
      push_registration_error_code: errorCode,
    });
  });
}
