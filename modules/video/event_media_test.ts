/**
 * Event media records from active-safety alarms: linked to the alert of their moment, states
 * (obtaining, not obtained, failed on a refused 0x9208, overwritten), listing by device for a
 * few devices and by time for a whole subtree (only the caller's devices either way).
 */
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { OutgoingCommand } from "../gateway/protocols/types.ts";
import type { LiveConnection } from "../gateway/types.ts";
import { createMediaHub } from "./media/mod.ts";
import { VideoStore } from "./store.ts";
import { createVideo } from "./wiring.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const MINE = "865000000000017";
const OTHER = "865000000000025";
const SESSION = {
  accountId: "u",
  cAccountId: "u",
  isVirtual: false,
  jti: "j",
  via: "bearer",
} as const;
const T = Date.UTC(2026, 10, 26, 4);

async function setup(visible: string[], answer: boolean) {
  const kv = await openTestKv();
  const conn = (imei: string): LiveConnection => ({
    imei,
    protocol: "jt808",
    remote: "127.0.0.1:1",
    connectedAt: 0,
    heardAt: 0,
    credentialed: true,
    send: (c: OutgoingCommand) => {
      // The terminal's 0x0001 to the 0x9208: accepted or refused.
      queueMicrotask(() =>
        video.desk.onReply(conn(imei), { text: "", commandRef: c.ref & 0xffff, success: answer })
      );
      return Promise.resolve();
    },
    close() {},
  });
  const video = createVideo({
    store: new VideoStore(kv),
    dataDir: "/nonexistent",
    hub: createMediaHub(),
    connections: { get: (imei) => conn(imei) },
    alerts: {
      range: (imei, from, to) =>
        Promise.resolve(
          imei === MINE && from <= T && T <= to
            ? [{
              id: "a1",
              imei,
              userId: "u",
              type: "general" as const,
              time: T,
              lat: 1,
              lng: 2,
              speed: 0,
              read: -1 as const,
              processed: false,
              createdAt: 0,
            }]
            : [],
        ),
    },
    devices: { visibleDevice: (_s, imei) => Promise.resolve({ imei, deviceName: imei }) },
    visibleImeis: (_s, imeis) => Promise.resolve(imeis ?? visible),
    device: (imei) => ({ userId: "u", deviceName: `Cam ${imei.slice(-2)}` }),
    mediaAddress: () => ({ host: "h", port: 1 }),
    attachmentAddress: () => ({ host: "h", port: 2 }),
  });
  const alarm = (imei: string, files: number, label: string, time = T) =>
    video.desk.onVideo(conn(imei), {
      kind: "safetyAlarm",
      family: "dms",
      alarmType: 1,
      label,
      files,
      time,
    });
  const list = async (imeis?: string[]) =>
    (await video.services.events.list(SESSION, {
      imeis,
      startTime: "2026-11-26T00:00:00Z",
      endTime: "2026-11-27T00:00:00Z",
      pageNum: 1,
      pageSize: 20,
    })).list;
  return { kv, video, alarm, list };
}

/**
 * Waits (at most 5 s) until `ready` holds: the desk stores records in the background, and a
 * write takes longer on PostgreSQL than on Deno KV. The assertions after it say what is wrong.
 */
async function settle(ready: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("event media: linked to its alert; obtaining, not obtained, one record per label", async () => {
  const s = await setup([MINE], true);
  try {
    s.alarm(MINE, 2, "11".repeat(16));
    s.alarm(MINE, 2, "11".repeat(16)); // the same report again
    s.alarm(MINE, 0, "22".repeat(16), T + 3_600_000);
    const expected = [
      ["notObtained", "", "dms:1", null],
      ["obtaining", "a1", "dms:1", 1],
    ];
    const summary = async () =>
      (await s.list()).map((r) => [r.state, r.alertId, r.alarmType, r.lat]);
    await settle(async () => isDeepStrictEqual(await summary(), expected));
    const rows = await s.list();
    assert.deepEqual(rows.map((r) => [r.state, r.alertId, r.alarmType, r.lat]), expected);
    assert.equal(rows[1].deviceName, "Cam 17");
    // The terminal no longer has the files: overwritten.
    const r = await s.video.services.events.attachmentsAnnounced(rows[1].id, "11".repeat(16), 0);
    assert.equal(r?.id, rows[1].id);
    assert.equal((await s.list())[1].state, "overwritten");
  } finally {
    s.kv.close();
  }
});

Deno.test("event media: a refused 0x9208 fails the record", async () => {
  const s = await setup([MINE], false);
  try {
    s.alarm(MINE, 1, "33".repeat(16));
    await settle(async () => (await s.list())[0]?.state === "failed");
    assert.equal((await s.list())[0].state, "failed");
  } finally {
    s.kv.close();
  }
});

Deno.test("event media: a whole subtree is listed by time, only its own devices", async () => {
  const many = Array.from({ length: 60 }, (_, i) => `8650000000${String(i).padStart(4, "0")}9`);
  const s = await setup([...many, MINE], true);
  try {
    s.alarm(MINE, 1, "44".repeat(16));
    s.alarm(OTHER, 1, "55".repeat(16));
    await settle(async () => (await s.list([MINE, OTHER])).length === 2);
    assert.deepEqual((await s.list()).map((r) => r.imei), [MINE]);
    assert.deepEqual((await s.list([MINE])).map((r) => r.imei), [MINE]);
  } finally {
    s.kv.close();
  }
});
