/**
 * Who may speak for a device on the gateway (see docs/decisions.md, "Device identity"):
 *
 * - JT/T 808 (JT808_AUTH=strict): a registration (0x0100) gets a fresh random auth code,
 *   stored before it is sent; a connection stores nothing before it authenticated (0x0102)
 *   with the device's current code. With JT808_AUTH=lenient the code is the phone number and
 *   reports are accepted without registration, as before.
 * - GT06, H02 and lenient JT/T 808 carry no credential: a login names an IMEI, nothing more. A
 *   second login of a device whose connection was heard from within DEVICE_TAKEOVER_SECONDS is
 *   refused; after that much silence a new login replaces the old connection (the usual case:
 *   a device that lost its link without the server seeing the socket close).
 */
import type { Device } from "../../devices/model.ts";
import type { LiveConnection } from "./connections.ts";
import type { ProtocolName } from "./link_messages.ts";
import type { GatewayStore } from "./store.ts";

export type Jt808AuthMode = "strict" | "lenient";

/** Auth code alphabet: letters and digits every terminal firmware stores as plain text. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** 16 characters of 32: 80 random bits. */
const CODE_LENGTH = 16;

export class DeviceIdentity {
  constructor(
    private readonly store: GatewayStore,
    readonly jt808Auth: Jt808AuthMode,
    readonly takeoverMs: number,
  ) {}

  /** Whether a login on this protocol still has to present a credential before it may report. */
  needsCredential(protocol: ProtocolName): boolean {
    return protocol === "jt808" && this.jt808Auth === "strict";
  }

  /**
   * Whether `current`, the device's live connection, keeps the device against a new login
   * without credentials: it was heard from within the takeover window.
   */
  holds(current: LiveConnection | undefined, now = Date.now()): current is LiveConnection {
    return current !== undefined && now - current.heardAt < this.takeoverMs;
  }

  /** A fresh auth code for the device, stored (replacing the previous one) before it is returned. */
  async issue(imei: string, remote: string): Promise<string> {
    const code = randomCode();
    await this.store.setAuthCode(imei, { code, issuedAt: Date.now(), remote });
    return code;
  }

  /**
   * Whether `code` is the device's current auth code, issued since the device record was
   * created: a code from an earlier life of the IMEI never counts, even in the moment between
   * an import and the deletion of old codes that follows it.
   */
  async verify(device: Pick<Device, "imei" | "createdAt">, code: string): Promise<boolean> {
    const current = await this.store.authCode(device.imei);
    return current !== null && current.issuedAt >= Date.parse(device.createdAt) &&
      sameText(current.code, code);
  }
}

function randomCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH));
  return Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
}

/** Compares in time independent of where the texts differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
