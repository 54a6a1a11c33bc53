/** A simulated JT/T 1078 terminal through the video API: online, its recordings, downloads. */
import { CATALOGUE } from "../../lib/errors.ts";
import type { HistoryFile, VideoDownloadRow } from "../../modules/video/model.ts";
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

/** The terminal's newest recording on channel 1 within the last day. */
export async function newestRecording(client: ApiClient, imei: string): Promise<HistoryFile> {
  const end = new Date();
  const { list } = await client.call("/v3/new/video/history/list", {
    imei,
    channel: 1,
    startTime: new Date(end.getTime() - 86_400_000).toISOString(),
    endTime: end.toISOString(),
  }) as { list: HistoryFile[] };
  return list.at(-1)!;
}

/**
 * Asks `via` to download the recording, then waits (reading the tasks through `watch`, 60 s at
 * most) until the download is no longer under way: the task as started and as it ended.
 */
export async function downloadRecording(
  via: ApiClient,
  watch: ApiClient,
  imei: string,
  file: HistoryFile,
): Promise<{ started: VideoDownloadRow; done: VideoDownloadRow }> {
  const { list: tasks } = await via.call("/v3/new/video/history/download", {
    imei,
    files: [{ channel: 1, startTime: file.startTime, endTime: file.endTime }],
  }) as { list: VideoDownloadRow[] };
  const done = await waitFor("the download", async () => {
    const { list } = await watch.call("/v3/new/video/history/downloads", {}) as {
      list: VideoDownloadRow[];
    };
    return list.find((d) => d.id === tasks[0].id && d.state !== "downloading");
  }, 60_000);
  return { started: tasks[0], done };
}
