/**
 * The server-side seam between the media half (modules/video/media: the JT/T 1078 listener,
 * reassembly, muxing to HLS and MP4) and the signalling half (modules/video: JT/T 808 requests,
 * the API, downloads, event media). Not for browser code.
 */
import type { AudioCodec, VideoCodec } from "./model.ts";

/**
 * Which media connection a stream is: `sim` is the JT/T 1078 packet's SIM field turned into the
 * gateway's terminal id (modules/gateway/protocols/jt808/identity.ts `terminalId`), `channel` the
 * logical channel, `purpose` "live" or a history playback/download id.
 */
export interface StreamKey {
  sim: string;
  channel: number;
  purpose: string;
}

export interface StreamInfo {
  key: StreamKey;
  video: VideoCodec | null;
  audio: AudioCodec | null;
  /** Catalogue message key when audio is dropped or transcoded (decided in docs/decisions.md). */
  audioNote?: string;
  startedAt: number;
  lastPacketAt: number;
  /** Last time a viewer fetched the playlist (ms epoch); drives the idle stop. */
  lastViewedAt: number;
  bytesIn: number;
  /** The media connection is still open. */
  connected: boolean;
}

export interface MediaHub {
  /**
   * Announces that the next media connection for (sim, channel) is `purpose`; resolves with the
   * stream's info once its first HLS segment is ready, or null after `timeoutMs`. A live stream
   * already playing resolves at once (a second start reuses it).
   */
  expect(key: StreamKey, timeoutMs: number): Promise<StreamInfo | null>;
  /** The HLS media playlist (segment URIs relative to it), or null when no such stream. Marks a view. */
  playlist(key: StreamKey): string | null;
  /** The fMP4 init segment (`init.mp4`) or a media segment by its playlist name. */
  segment(key: StreamKey, name: string): Uint8Array | null;
  info(key: StreamKey): StreamInfo | null;
  streams(): StreamInfo[];
  /** Closes the media connection and forgets the stream. */
  close(key: StreamKey): void;
  /**
   * Records the stream of `key` into an MP4 file at `path` until the connection closes or
   * `maxMs` passes; resolves with the file's size, or null when nothing decodable arrived.
   */
  record(key: StreamKey, path: string, maxMs: number): Promise<number | null>;
}
