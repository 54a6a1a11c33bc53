/**
 * A command's round trip as the console makes it, for the cluster test: an online instruction
 * sent through one instance's API, then its record read back until it settles (the terminal
 * answered, or it failed) — wherever the terminal's connection is held.
 */
import assert from "node:assert/strict";
import type { PlatformApi } from "../../modules/simulator/api.ts";
import { waitFor } from "../helpers/wait_for.ts";

export interface CommandRow {
  id: string;
  status: string;
  reply: string | null;
}

/** Sends `code` to `imei` through `api` and returns its settled record as `api` reads it. */
export async function commandRoundTrip(
  api: PlatformApi,
  imei: string,
  code: string,
): Promise<CommandRow> {
  const sent = await api.call<{ id: string; status: string }>(
    "/v3/new/command/sendInstruction",
    { imei, code, sendType: "online", params: {} },
  );
  assert.equal(sent.status, "sending", JSON.stringify(sent));
  return await waitFor("the command to settle", async () => {
    const { list } = await api.call<{ list: CommandRow[] }>(
      "/v3/new/command/status",
      { imei, pageNum: 1, pageSize: 10 },
    );
    const row = list.find((c) => c.id === sent.id);
    return row && row.status !== "sending" && row;
  });
}
