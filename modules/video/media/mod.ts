/**
 * The media half's entry: the hub app/compose.ts hands the video area, and the JT/T 1078
 * listener main.ts starts on JT1078_PORT (0: off).
 */
import { MediaHubImpl, type MediaHubOptions } from "./hub.ts";

export { MediaHubImpl } from "./hub.ts";
export { type MediaListener, startMediaListener } from "./listener.ts";

export function createMediaHub(options: MediaHubOptions = {}): MediaHubImpl {
  return new MediaHubImpl(options);
}
