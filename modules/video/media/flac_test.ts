import assert from "node:assert/strict";
import { decodeG711, dfLa, FLAC_BLOCK, FlacEncoder } from "./flac.ts";

Deno.test("G.711 expansion matches ffmpeg's A-law and µ-law decoders", async () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (const law of ["a", "u"] as const) {
    const out = await new Deno.Command("ffmpeg", {
      args: [
        "-v",
        "error",
        "-f",
        law === "a" ? "alaw" : "mulaw",
        "-ar",
        "8000",
        "-ac",
        "1",
        "-i",
        "pipe:0",
        "-f",
        "s16le",
        "pipe:1",
      ],
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    const writer = out.stdin.getWriter();
    await writer.write(all);
    await writer.close();
    const { stdout } = await out.output();
    const theirs = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
    assert.deepEqual([...decodeG711(all, law)], [...theirs]);
  }
});

Deno.test("FLAC frames (verbatim) decode with ffmpeg to the same samples, frame numbers past one byte", async () => {
  const fixture = await Deno.readFile(
    new URL("../../../tests/fixtures/video/clip_8k.alaw", import.meta.url),
  );
  const pcm = decodeG711(fixture, "a");
  const enc = new FlacEncoder(8000);
  const frames: Uint8Array[] = [];
  // Uneven pieces, as terminals send them.
  for (let at = 0; at < pcm.length; at += 333) frames.push(...enc.push(pcm.subarray(at, at + 333)));
  assert.equal(frames.length, Math.floor(pcm.length / FLAC_BLOCK));
  // A native FLAC file: "fLaC" + the STREAMINFO block of dfLa + the frames.
  const file = new Uint8Array(
    [..."fLaC"].map((c) => c.charCodeAt(0)).concat(
      [...dfLa(8000).subarray(4)],
      ...frames.map((f) => [...f]),
    ),
  );
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/a.flac`, file);
    const out = await new Deno.Command("ffmpeg", {
      args: ["-v", "error", "-i", `${dir}/a.flac`, "-f", "s16le", "pipe:1"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(out.stderr), "");
    const decoded = new Int16Array(out.stdout.buffer, out.stdout.byteOffset, out.stdout.length / 2);
    assert.equal(decoded.length, frames.length * FLAC_BLOCK);
    assert.deepEqual([...decoded.subarray(0, 5000)], [...pcm.subarray(0, 5000)]);
    assert.deepEqual([...decoded.subarray(-1000)], [
      ...pcm.subarray(decoded.length - 1000, decoded.length),
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
