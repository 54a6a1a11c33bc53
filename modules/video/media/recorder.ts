/**
 * Writes a stream's segments into one MP4 file (a fragmented MP4: init + moof/mdat fragments,
 * decode times starting at 0). When it ends, the init segment is rewritten in place with the
 * total duration (mvex/mehd has a fixed size) so players show the length.
 */
import { type AudioTrack, fragment, initSegment, type TrackRun, type VideoTrack } from "./mp4.ts";
import type { Segment } from "./segmenter.ts";
import { writeAll } from "../../../lib/net/write_all.ts";

export class Mp4Recorder {
  #file: Deno.FsFile | null = null;
  #tracks: { video: VideoTrack; audio: AudioTrack | null } | null = null;
  #bases = new Map<number, number>();
  #durationMs = 0;
  #size = 0;
  #fragments = 0;
  #chain: Promise<void> = Promise.resolve();
  #failed = false;
  #ended = false;
  /** Told the outcome once the hub ends the recording. */
  ended?: (size: number | null) => void;

  constructor(private readonly path: string) {}

  /**
   * Queues a segment; the first one opens the file with its tracks. Segments of other tracks
   * (the terminal switched resolution) are left out: one file has one sample description.
   */
  add(segment: Segment): void {
    if (this.#ended || !segment.runs.length) return;
    this.#chain = this.#chain.then(() => this.#write(segment, segment.tracks)).catch(() => {
      this.#failed = true;
    });
  }

  async #write(segment: Segment, tracks: { video: VideoTrack; audio: AudioTrack | null }) {
    if (this.#failed || (this.#tracks && this.#tracks.video !== tracks.video)) return;
    if (!this.#file) {
      this.#tracks = tracks;
      this.#file = await Deno.open(this.path, { write: true, create: true, truncate: true });
      await this.#put(initSegment(tracks.video, tracks.audio, 0));
    }
    const runs: TrackRun[] = segment.runs.map((r) => {
      if (!this.#bases.has(r.trackId)) this.#bases.set(r.trackId, r.baseDecodeTime);
      return { ...r, baseDecodeTime: r.baseDecodeTime - this.#bases.get(r.trackId)! };
    });
    await this.#put(fragment(++this.#fragments, runs));
    this.#durationMs += segment.durationMs;
  }

  async #put(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) at += await this.#file!.write(bytes.subarray(at));
    this.#size += bytes.length;
  }

  /** Finishes the file; the size in bytes, or null when nothing decodable was written. */
  async end(): Promise<number | null> {
    this.#ended = true;
    await this.#chain;
    const file = this.#file;
    if (!file) return null;
    try {
      if (!this.#failed && this.#tracks) {
        await file.seek(0, Deno.SeekMode.Start);
        const init = initSegment(
          this.#tracks.video,
          this.#tracks.audio,
          Math.round(this.#durationMs),
        );
        await writeAll(file, init);
      }
    } finally {
      file.close();
    }
    if (this.#failed || !this.#fragments) {
      await Deno.remove(this.path).catch(() => {});
      return null;
    }
    return this.#size;
  }
}
