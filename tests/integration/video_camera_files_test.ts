/**
 * GT06-family dash cams (JC400) over a real server: a 0x95 event packet naming the event's two
 * video files (a captured frame, re-dated to now) becomes an event media record "not obtained"
 * listing the files the camera keeps on its card, linked to the alert the packet raised.
 */
import assert from "node:assert/strict";
import type { EventMediaRow } from "../../modules/video/model.ts";
import { buildFrame } from "../../modules/gateway/protocols/gt06/frame.ts";
import { hex } from "../../modules/gateway/protocols/jt808/test_frames.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { gt06Heartbeat, gt06Login, gt06Time } from "../helpers/gt06_frames.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";
const IMEI = "862798052429087";
/** Captured JC400 0x95 (Traccar's Gt06ProtocolDecoderTest): an event with an I and an F file. */
const CAPTURE = hex(
  "78789795ffff01180b0d031406da04b5ab0d08813df01ca9002c008a9200004556454e545f3836323739383035323432393038375f30303030303030305f323032345f31315f31325f32325f32305f30365f495f35362e6d70342c4556454e545f3836323739383035323432393038375f30303030303030305f323032345f31315f31325f32325f32305f30365f465f35352e6d70340037d45b0d0a",
);

Deno.test({
  name: "video: a GT06-family dash cam's event files become event media kept on the camera",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    let d: RawDevice | null = null;
    try {
      const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      await admin.call("/v3/new/newEquipment/importEquipment", {
        userId: me.userId,
        mcType: "GT06N",
        imeis: [IMEI],
      });
      d = await RawDevice.open(devicePorts(server).gt06);
      await d.send(gt06Login(IMEI, 1));
      await d.take(10);
      // The capture's content with its date set to two minutes ago (GT06 dates are binary).
      const content = CAPTURE.slice(4, 4 + CAPTURE[2] - 5);
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 120_000);
      content.set(gt06Time(at), 3);
      const frame = buildFrame(0x95, 7, content);
      await d.send(frame);
      await d.send(frame); // re-sent (a lost ack): still one record
      await d.send(gt06Heartbeat(8));
      await d.take(10);
      const range = {
        startTime: new Date(at.getTime() - 3_600_000).toISOString(),
        endTime: new Date().toISOString(),
        pageNum: 1,
        pageSize: 10,
      };
      let rows: EventMediaRow[] = [];
      for (let i = 0; i < 100 && rows.length === 0; i++) {
        rows = (await admin.call("/v3/new/video/event/list", range)).list;
        if (!rows.length) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(rows.length, 1, JSON.stringify(rows));
      const [row] = rows;
      assert.equal(row.imei, IMEI);
      assert.equal(row.state, "notObtained");
      assert.equal(row.time, at.toISOString());
      assert.match(row.alarmType, /^camera:\d+$/);
      assert.deepEqual(row.cameraFiles, [
        "EVENT_862798052429087_00000000_2024_11_12_22_20_06_I_56.mp4",
        "EVENT_862798052429087_00000000_2024_11_12_22_20_06_F_55.mp4",
      ]);
      assert.deepEqual([row.pictures, row.videos], [[], []]);
    } finally {
      d?.conn.close();
      await server.stop();
    }
  },
});
