import assert from "node:assert/strict";
import { newSession } from "../types.ts";
import { encodeH02Command, formatH02Command, H02_COMMANDS } from "./encoder.ts";
import { h02 } from "./index.ts";

const AT = new Date("2026-03-01T08:09:10Z");
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("h02 encoder: time goes after the command name", () => {
  assert.equal(formatH02Command("4210051415", "S20,1,1", AT), "*HQ,4210051415,S20,080910,1,1#");
  assert.equal(formatH02Command("4210051415", "D1", AT), "*HQ,4210051415,D1,080910#");
});

Deno.test("h02 encoder: raw frames pass through, framing characters are stripped", () => {
  assert.equal(formatH02Command("1", " *HQ,1,S20,000000,1,1# ", AT), "*HQ,1,S20,000000,1,1#");
  assert.equal(formatH02Command("1", "S20,1,1#\r\n", AT), "*HQ,1,S20,080910,1,1#");
});

Deno.test("h02 encoder: typed helpers", () => {
  assert.equal(H02_COMMANDS.engineStop, "S20,1,1");
  assert.equal(H02_COMMANDS.engineResume, "S20,1,0");
  assert.equal(H02_COMMANDS.positionPeriodic(30), "S71,22,30");
});

Deno.test("h02 encoder: uses the session's device id, zeros when unknown", () => {
  const session = newSession();
  assert.equal(
    decode(encodeH02Command({ content: "S20,1,0", ref: 1 }, session, AT)),
    "*HQ,0000000000,S20,080910,1,0#",
  );
  session.deviceId = "353505221264507";
  assert.match(
    decode(h02.encodeCommand({ content: "S20,1,0", ref: 2 }, session)),
    /^\*HQ,353505221264507,S20,\d{6},1,0#$/,
  );
});
