/**
 * The build manifest: which hashed asset URL serves each island and the boot script.
 * Written by scripts/build.ts to `<buildDir>/manifest.json`; the server only reads it.
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export interface IslandManifest {
  /** Island name ("Foo", "_test/Counter") -> hashed URL, e.g. "/assets/Foo-3f2a1b9c.js". */
  islands: Record<string, string>;
  /** Hashed URL of the client boot script. */
  boot: string;
  /** Optional: asset URL -> the shared chunk URLs it statically imports (for modulepreload). */
  preload?: Record<string, string[]>;
}

/**
 * Where the prebuilt `build/` folder is: `$TP_BUILD_DIR` if set, else `<repo>/build` found
 * relative to this module. Relative to the module (not Deno.cwd()) because a binary made with
 * `deno compile --include build` serves its embedded files at the same relative location.
 */
export function defaultBuildDir(): string {
  try {
    const fromEnv = Deno.env.get("TP_BUILD_DIR");
    if (fromEnv) return fromEnv;
  } catch {
    // No --allow-env: use the module-relative default.
  }
  return fileURLToPath(new URL("../../build", import.meta.url));
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string");
}

/** Checks the parsed JSON has the manifest's shape. */
export function parseManifest(data: unknown, source = "manifest"): IslandManifest {
  const m = data as Partial<IslandManifest> | null;
  if (!m || typeof m.boot !== "string" || !isStringRecord(m.islands)) {
    throw new Error(`${source}: not an island manifest (need "boot" and "islands")`);
  }
  const out: IslandManifest = { islands: m.islands, boot: m.boot };
  if (m.preload && typeof m.preload === "object") out.preload = m.preload;
  return out;
}

/** Reads `<buildDir>/manifest.json`. Fails with a hint to run the build if it is missing. */
export async function loadManifest(buildDir: string): Promise<IslandManifest> {
  const file = join(buildDir, "manifest.json");
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new Error(`${file} not found: run \`deno task build\` first`, { cause: err });
    }
    throw err;
  }
  return parseManifest(JSON.parse(text), file);
}
