/** Anything with Deno's `write` (a connection, a file, stdout). */
export interface Writer {
  write(p: Uint8Array): Promise<number>;
}

/** Writes every byte: one `write` may take only part of them. */
export async function writeAll(to: Writer, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await to.write(bytes.subarray(at));
}
