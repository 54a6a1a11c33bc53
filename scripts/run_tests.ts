/**
 * `deno task test`: checks for a browser, builds the client bundles, then runs every test.
 * (Not named test.ts: `deno test` would pick that name up as a test module and recurse.)
 * Extra arguments go to `deno test` (e.g. a file or --filter).
 */
import { chromiumPath } from "../tests/helpers/browser.ts";

const browser = chromiumPath();
if (!browser) {
  console.error(
    "\n*** No Chromium found. The end-to-end tests need it. Install it with:\n\n" +
      "    apt-get install -y chromium\n\n" +
      "(or set CHROMIUM_PATH to a Chromium/Chrome executable).\n",
  );
  Deno.exit(1);
}

async function run(args: string[], env: Record<string, string> = {}): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdout: "inherit",
    stderr: "inherit",
    env,
  }).spawn();
  return (await child.status).code;
}

const buildCode = await run(["run", "-A", "scripts/build.ts"], { TP_TEST_ISLANDS: "1" });
if (buildCode !== 0) Deno.exit(buildCode);
Deno.exit(await run(["test", "-A", "--no-check=remote", ...Deno.args], { CHROMIUM_PATH: browser }));
