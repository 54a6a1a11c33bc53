/**
 * The media hub while the JT/T 1078 half (modules/video/media) is not part of the process:
 * no stream ever arrives, so live and history answer "response timeout". Replaced in
 * app/compose.ts by the media half's hub.
 */
import type { MediaHub, StreamInfo } from "./types.ts";

export const noMediaHub: MediaHub = {
  expect: (_key, timeoutMs) =>
    new Promise<StreamInfo | null>((resolve) => setTimeout(() => resolve(null), timeoutMs)),
  playlist: () => null,
  segment: () => null,
  info: () => null,
  streams: () => [],
  close: () => {},
  record: () => Promise.resolve(null),
};
