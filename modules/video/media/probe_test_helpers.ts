/** ffprobe over a file, for the media tests (Debian's ffmpeg; the test set-up installs it). */

export interface Probe {
  codec: string;
  profile: string;
  width: number;
  height: number;
  /** Decoded video frames. */
  frames: number;
  /** Seconds, from the last frame's time + its duration. */
  duration: number;
  errors: string;
}

export async function probe(path: string): Promise<Probe> {
  const out = await new Deno.Command("ffprobe", {
    args: [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-count_frames",
      "-show_entries",
      "stream=codec_name,profile,width,height,nb_read_frames:format=duration",
      "-of",
      "json",
      path,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const json = JSON.parse(new TextDecoder().decode(out.stdout));
  const s = json.streams?.[0] ?? {};
  return {
    codec: s.codec_name,
    profile: s.profile,
    width: s.width,
    height: s.height,
    frames: Number(s.nb_read_frames),
    duration: Number(json.format?.duration),
    errors: new TextDecoder().decode(out.stderr),
  };
}

/** Decodes every frame with ffmpeg; the error output (empty when all decode). */
export async function decodeErrors(path: string): Promise<string> {
  const out = await new Deno.Command("ffmpeg", {
    args: ["-v", "error", "-i", path, "-f", "null", "-"],
    stdout: "null",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stderr) + (out.success ? "" : " (ffmpeg failed)");
}
