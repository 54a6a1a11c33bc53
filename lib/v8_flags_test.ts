import assert from "node:assert/strict";
import { SERVER_V8_ARG } from "./v8_flags.ts";

Deno.test("deno task start runs the server with the server's V8 flags", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const start: string = config.tasks.start;
  assert.match(start, new RegExp(`deno run [^&]*${SERVER_V8_ARG}[^&]* main\\.ts`));
});
