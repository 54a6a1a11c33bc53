import type { CommandRecord } from "./store.ts";

/** A command reached a final or waiting state (succeeded, failed, timed out, cancelled…). */
export interface CommandSettled {
  type: "commandSettled";
  command: CommandRecord;
}
