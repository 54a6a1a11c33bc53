/**
 * KV keys of the gateway:
 *  jt808Code  imei → AuthCode  (the JT/T 808 auth code issued at the terminal's last registration)
 */
const K = {
  jt808Code: (imei: string) => ["gateway", "jt808Code", imei],
};

export interface AuthCode {
  code: string;
  /** Epoch ms of the registration that issued it. */
  issuedAt: number;
  /** Address the registration came from (for the log of who re-registered a terminal). */
  remote: string;
}

export class GatewayStore {
  constructor(private readonly kv: Deno.Kv) {}

  async authCode(imei: string): Promise<AuthCode | null> {
    return (await this.kv.get<AuthCode>(K.jt808Code(imei))).value;
  }

  /** Replaces the device's code: the one issued before stops working. */
  async setAuthCode(imei: string, code: AuthCode): Promise<void> {
    await this.kv.set(K.jt808Code(imei), code);
  }

  /**
   * Deletes the devices' codes: an IMEI imported anew starts without the code of an earlier
   * life, and its terminal registers again.
   */
  async forgetAuthCodes(imeis: readonly string[]): Promise<void> {
    // Well under the store's 1,000 mutations per atomic operation.
    for (let i = 0; i < imeis.length; i += 500) {
      const op = this.kv.atomic();
      for (const imei of imeis.slice(i, i + 500)) op.delete(K.jt808Code(imei));
      await op.commit();
    }
  }
}
