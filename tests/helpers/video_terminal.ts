/** Waiting for a simulated JT/T 1078 terminal to be reachable through the video API. */
import { CATALOGUE } from "../../lib/errors.ts";
import type { ApiClient } from "./api_client.ts";
import { waitFor } from "./wait_for.ts";

/** Resolves once a history query for the terminal is no longer refused as offline. */
export async function videoTerminalOnline(
  client: ApiClient,
  imei: string,
  timeoutMs = 20_000,
): Promise<void> {
  await waitFor("the terminal online", async () => {
    const r = await client.raw("/v3/new/video/history/list", {
      imei,
      channel: 1,
      startTime: new Date(Date.now() - 3_600_000).toISOString(),
      endTime: new Date().toISOString(),
    });
    return r.code !== CATALOGUE.deviceOffline;
  }, timeoutMs);
}
