import type { CommonAddress } from "./model.ts";

/** ["commonAddress", imei] → the device's list (replaced whole on save). */
export class CommonAddressStore {
  constructor(private readonly kv: Deno.Kv) {}

  async get(imei: string): Promise<CommonAddress[]> {
    return (await this.kv.get<CommonAddress[]>(["commonAddress", imei])).value ?? [];
  }

  async set(imei: string, list: CommonAddress[]): Promise<void> {
    if (list.length) await this.kv.set(["commonAddress", imei], list);
    else await this.kv.delete(["commonAddress", imei]);
  }
}
