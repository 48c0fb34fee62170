import { createCipheriv, randomBytes } from 'node:crypto';
import { errors } from '@chat/contracts';

/**
 * The family's app login flows. The mobile app opens the login page with `mobile_flow_otp`, a
 * one-time pad of 64 hex digits; after login the page redirects to `zulip://login?...` with the
 * API key XOR-ed with the pad, digit by digit, so an app that hijacks the zulip:// scheme learns
 * nothing. The desktop app sends `desktop_flow_otp`, an AES-256 key; the page shows a login
 * token sealed with AES-GCM, which the app decrypts and redeems for a browser session.
 */

const API_KEY_LENGTH = 32;

export function isValidOtp(otp: string): boolean {
  return otp.length === API_KEY_LENGTH * 2 && /^[0-9a-fA-F]+$/.test(otp);
}

/** The family's checks and messages for the two flow parameters. */
export function checkOtpParams(mobileFlowOtp: string | undefined, desktopFlowOtp: string | undefined): void {
  for (const otp of [mobileFlowOtp, desktopFlowOtp]) {
    if (otp !== undefined && !isValidOtp(otp)) throw errors.badRequest('Invalid OTP');
  }
  if (mobileFlowOtp && desktopFlowOtp) throw errors.badRequest("Can't use both mobile_flow_otp and desktop_flow_otp together.");
}

function asciiToHex(text: string): string {
  return Buffer.from(text, 'latin1').toString('hex');
}

/** XOR of two equally long hex strings, one hex digit at a time, in lowercase. */
function xorHex(a: string, b: string): string {
  let out = '';
  for (let i = 0; i < a.length; i++) out += (parseInt(a[i]!, 16) ^ parseInt(b[i]!, 16)).toString(16);
  return out;
}

export function otpEncryptApiKey(apiKey: string, otp: string): string {
  const hex = asciiToHex(apiKey);
  if (otp.length !== API_KEY_LENGTH * 2 || hex.length !== otp.length) throw new Error('API key and pad lengths differ');
  return xorHex(hex, otp);
}

export function otpDecryptApiKey(encrypted: string, otp: string): string {
  return Buffer.from(xorHex(encrypted, otp), 'hex').toString('latin1');
}

/** Where the mobile flow ends: the app's own URL scheme, with the key under the pad. */
export function mobileFlowRedirect(realmUrl: string, user: { id: number; deliveryEmail: string; apiKey: string }, otp: string): string {
  const params = new URLSearchParams({
    otp_encrypted_api_key: otpEncryptApiKey(user.apiKey, otp),
    email: user.deliveryEmail,
    user_id: String(user.id),
    realm: realmUrl,
  });
  return `zulip://login?${params}`;
}

/** hex(iv || AES-256-GCM(key = the pad, token) || tag), as the desktop app decrypts it. */
export function desktopFlowData(otp: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(otp, 'hex'), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return Buffer.concat([iv, sealed]).toString('hex');
}
