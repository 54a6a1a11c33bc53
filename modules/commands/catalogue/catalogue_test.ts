/**
 * Catalogue encodings checked against the protocol documents: each instruction is built for
 * a model, framed by the gateway's own encoder, then read back with the simulator's
 * independent device-side parsers (GT06 0x80, JT/T 808 0x8105/0x8103, H02 *HQ text).
 */
import assert from "node:assert/strict";
import { BizError } from "../../../lib/errors.ts";
import { gt06 } from "../../gateway/protocols/gt06/index.ts";
import { h02 } from "../../gateway/protocols/h02/index.ts";
import { newSession } from "../../gateway/protocols/types.ts";
import { crcItu, Gt06StreamReader, parseGt06Command } from "../../simulator/devices/gt06.ts";
import { Jt808StreamReader } from "../../simulator/devices/jt808.ts";
import { DEVICE_MODELS } from "../../devices/models.ts";
import { buildInstruction, instructionsFor } from "./index.ts";
import { encodeBinaryCommand } from "../../gateway/protocols/jt808/commands.ts";

function gt06Text(mcType: string, code: string, params: Record<string, unknown> = {}) {
  const built = buildInstruction(mcType, code as never, params);
  assert.equal(built.encoding.kind, "text");
  return built.content;
}

function refusal(fn: () => unknown): BizError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BizError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

Deno.test("catalogue: GT06 texts follow the Concox command set", () => {
  assert.equal(gt06Text("GT06N", "engineCut"), "DYD,000000#");
  assert.equal(gt06Text("GT06N", "engineRestore"), "HFYD,000000#");
  assert.equal(gt06Text("JM-VL01", "engineCut"), "RELAY,1#");
  assert.equal(gt06Text("JM-VL01", "engineRestore"), "RELAY,0#");
  assert.equal(gt06Text("GT06N", "locate"), "WHERE#");
  assert.equal(gt06Text("GT06N", "reboot"), "RESET#");
  assert.equal(gt06Text("GT06N", "reportInterval", { seconds: 30 }), "TIMER,30,30#");
  assert.equal(
    gt06Text("AT4", "sosNumbers", { numbers: ["+8613800138000", "", "10086"] }),
    "SOS,A,+8613800138000,,10086#",
  );
  assert.equal(
    gt06Text("GT06N", "geofence", { lat: 22.5431, lng: 114.0579, radius: 450, alarm: "in" }),
    "FENCE,ON,0,22.543100,114.057900,5,IN,1#",
    "radius in 100 m steps, rounded up",
  );
  assert.equal(gt06Text("GT06N", "custom", { text: "VERSION" }), "VERSION#");
});

Deno.test("catalogue: a GT06 instruction frames as 0x80 with the ref as server flag", () => {
  const built = buildInstruction("JM-VL01", "engineCut", {});
  const session = newSession();
  const bytes = gt06.encodeCommand({ content: built.content, ref: 0x01020304 }, session);
  assert.deepEqual([...bytes.subarray(0, 2)], [0x78, 0x78]);
  assert.deepEqual([...bytes.subarray(-2)], [0x0d, 0x0a]);
  // CRC-ITU over length … serial (spec: from the packet length to the information serial).
  const crc = crcItu(bytes, 2, bytes.length - 4);
  assert.equal((bytes[bytes.length - 4] << 8) | bytes[bytes.length - 3], crc);
  const [frame] = new Gt06StreamReader().push(bytes);
  assert.equal(frame.type, 0x80);
  const cmd = parseGt06Command(frame.content)!;
  assert.equal(cmd.serverFlag, 0x01020304);
  assert.equal(cmd.text, "RELAY,1#");
  // Language word 0x0002 (English) follows the text.
  assert.deepEqual([...frame.content.subarray(-2)], [0x00, 0x02]);
});

Deno.test("catalogue: JT/T 808 control, parameter and position query frames carry the ref as serial", () => {
  const session = newSession();
  session.deviceId = "13800138000";
  const reader = new Jt808StreamReader();

  const reboot = buildInstruction("JT808", "reboot", {});
  assert.deepEqual(reboot.encoding, { kind: "jt808Control", word: 4 });
  const [f1] = reader.push(encodeBinaryCommand(reboot.encoding as never, 0x10203, session));
  assert.equal(f1.msgId, 0x8105);
  assert.equal(f1.serial, 0x0203, "WORD serial = ref & 0xffff");
  assert.equal(f1.terminal, "013800138000");
  assert.ok(f1.checkOk);
  assert.deepEqual([...f1.body], [4]);

  const cut = buildInstruction("JT808", "engineCut", {});
  const [f2] = reader.push(encodeBinaryCommand(cut.encoding as never, 7, session));
  assert.deepEqual([...f2.body], [0x64]);

  const interval = buildInstruction("JT808", "reportInterval", { seconds: 60 });
  assert.equal(interval.content, "0x8103 0x0029=60");
  const [f3] = reader.push(encodeBinaryCommand(interval.encoding as never, 9, session));
  assert.equal(f3.msgId, 0x8103);
  // BYTE count, DWORD id 0x00000029, BYTE length 4, DWORD 60.
  assert.deepEqual([...f3.body], [1, 0, 0, 0, 0x29, 4, 0, 0, 0, 60]);

  // Locate now: 0x8201 position query, empty body (JT/T 808-2013 §8.19), on JC400 too.
  const locate = buildInstruction("JC400", "locate", {});
  assert.deepEqual(locate.encoding, { kind: "jt808Locate" });
  assert.equal(locate.content, "0x8201");
  const [f4] = reader.push(encodeBinaryCommand(locate.encoding as never, 0x30011, session));
  assert.deepEqual([f4.msgId, f4.serial, f4.body.length, f4.checkOk], [0x8201, 0x0011, 0, true]);
  const text = buildInstruction("JT808", "custom", { text: "STATUS#" });
  assert.deepEqual(text.encoding, { kind: "text", content: "STATUS#" });
});

Deno.test("catalogue: H02 instructions become *HQ,<id>,CMD,hhmmss,params#", () => {
  const session = newSession();
  session.deviceId = "4209917484";
  const frame = (code: string, params = {}) =>
    new TextDecoder().decode(
      h02.encodeCommand(
        { content: buildInstruction("H02", code as never, params).content, ref: 5 },
        session,
      ),
    );
  assert.match(frame("engineCut"), /^\*HQ,4209917484,S20,\d{6},1,1#$/);
  assert.match(frame("engineRestore"), /^\*HQ,4209917484,S20,\d{6},1,0#$/);
  assert.match(frame("armAlarm"), /^\*HQ,4209917484,SCF,\d{6},0,0#$/);
  assert.match(frame("reportInterval", { seconds: 45 }), /^\*HQ,4209917484,S71,\d{6},22,45#$/);
});

Deno.test("catalogue: models offer only what they support; parameters are validated", () => {
  assert.deepEqual(instructionsFor("OsmAnd"), []);
  assert.equal(
    refusal(() => buildInstruction("OsmAnd", "locate", {})).key,
    "modelHasNoInstructions",
  );
  assert.equal(refusal(() => buildInstruction("H02", "locate", {})).key, "commandUnsupported");
  assert.equal(
    refusal(() => buildInstruction("JM-LL01", "engineCut", {})).key,
    "commandUnsupported",
  );
  const low = refusal(() => buildInstruction("GT06N", "reportInterval", { seconds: 5 }));
  assert.equal(low.key, "illegalParameter");
  assert.equal(low.params.field, "params.seconds");
  const extra = refusal(() => buildInstruction("GT06N", "locate", { x: 1 }));
  assert.equal(extra.params.field, "params.x");
  const phones = refusal(() => buildInstruction("AT4", "sosNumbers", { numbers: ["abc"] }));
  assert.equal(phones.params.field, "params.numbers.0");
  const hash = refusal(() => buildInstruction("GT06N", "custom", { text: "A#B" }));
  assert.equal(hash.params.field, "params.text");
  const radius = refusal(() =>
    buildInstruction("GT06N", "geofence", { lat: 1, lng: 2, radius: 100, alarm: "in" })
  );
  assert.equal(radius.params.field, "params.radius");
  // Every model but the phone has at least locate-or-custom, and passwords only where flagged.
  for (const m of DEVICE_MODELS) {
    const list = instructionsFor(m.mcType);
    if (m.protocol === "osmand") continue;
    assert.ok(list.some((i) => i.code === "custom"), m.mcType);
  }
  assert.equal(
    instructionsFor("GT06N").find((i) => i.code === "engineCut")!.passwordRequired,
    true,
  );
  assert.equal(
    instructionsFor("JM-VL01").find((i) => i.code === "engineCut")!.passwordRequired,
    false,
  );
});
