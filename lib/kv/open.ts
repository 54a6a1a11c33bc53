import { join } from "node:path";

/** Opens the embedded store file under dataDir (created when missing). */
export async function openStore(dataDir: string): Promise<Deno.Kv> {
  await Deno.mkdir(dataDir, { recursive: true });
  return await Deno.openKv(join(dataDir, "tracking.kv"));
}

/** Allocates the next number of a named sequence; safe under concurrent callers. */
export async function nextSequence(kv: Deno.Kv, key: Deno.KvKey): Promise<number> {
  for (;;) {
    const current = await kv.get<number>(key);
    const next = (current.value ?? 0) + 1;
    const res = await kv.atomic().check(current).set(key, next).commit();
    if (res.ok) return next;
  }
}
