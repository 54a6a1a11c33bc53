import assert from "node:assert/strict";
import { Fleet } from "./fleet.ts";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import { STATUSES } from "../../modules/monitor/objects.ts";

function payload(): ObjectsPayload {
  const st = (s: string) => STATUSES.indexOf(s as never);
  return {
    now: 0,
    statuses: STATUSES,
    counts: { all: 4, moving: 1, idling: 1, stopped: 1, offline: 0, notActivated: 1 },
    imei: ["111111111111111", "222222222222222", "333333333333333", "444444444444444"],
    name: ["Truck 10", "Truck 2", "Van", "Bus"],
    mcType: ["GT06N", "GT06N", "GT06N", "GT06N"],
    appTypes: ["car", "truck"],
    appType: [0, 0, 1, 1],
    status: [st("moving"), st("idling"), st("stopped"), st("inactive")],
    lat: [22.5, 22.6, 22.7, null],
    lng: [114, 114.1, 114.2, null],
    speed: [60, 0, 0, 0],
    course: [90, 0, 0, 0],
    gpsTime: [1000, 900, 800, null],
    hbTime: [1000, 900, 800, null],
    acc: [true, true, false, null],
    group: ["", "North", "North", ""],
    followed: [false, false, true, false],
  };
}

Deno.test("fleet: counts by tab, never-seen devices are 'not activated', not offline", () => {
  const f = new Fleet(payload());
  assert.deepEqual(f.counts(), {
    all: 4,
    moving: 1,
    idling: 1,
    stopped: 1,
    offline: 0,
    notActivated: 1,
  });
  // A device that was heard from and then powered off is offline.
  f.data.status[1] = STATUSES.indexOf("poweredOff");
  assert.equal(f.counts().offline, 1);
  assert.equal(f.counts().notActivated, 1);
});

Deno.test("fleet: followed devices first, then natural name order; tab, group and search filter", () => {
  const f = new Fleet(payload());
  const names = (idx: number[]) => idx.map((i) => f.data.name[i]);
  const all = {
    tab: "all" as const,
    search: "",
    sortType: "name" as const,
    sortRule: "asc" as const,
  };
  assert.deepEqual(names(f.view(all)), ["Van", "Bus", "Truck 2", "Truck 10"]);
  assert.deepEqual(names(f.view({ ...all, sortRule: "desc" })), [
    "Van",
    "Truck 10",
    "Truck 2",
    "Bus",
  ]);
  assert.deepEqual(names(f.view({ ...all, sortType: "imei" })), [
    "Van",
    "Truck 10",
    "Truck 2",
    "Bus",
  ]);
  assert.deepEqual(names(f.view({ ...all, sortType: "imei", sortRule: "desc" })), [
    "Van",
    "Bus",
    "Truck 2",
    "Truck 10",
  ]);
  assert.deepEqual(names(f.view({ ...all, tab: "offline" })), []);
  assert.deepEqual(names(f.view({ ...all, tab: "notActivated" })), ["Bus"]);
  assert.deepEqual(names(f.view({ ...all, group: "North" })), ["Van", "Truck 2"]);
  assert.deepEqual(names(f.view({ ...all, group: "" })), ["Bus", "Truck 10"]);
  assert.deepEqual(names(f.view({ ...all, search: "2222" })), ["Truck 2"]);
  assert.deepEqual(names(f.view({ ...all, sortType: "speed", sortRule: "desc" })), [
    "Van",
    "Truck 10",
    "Truck 2",
    "Bus",
  ]);
  assert.deepEqual(f.groups(), [["", 2], ["North", 2]]);
});

Deno.test("fleet: live positions apply in place, stale fixes are ignored", () => {
  const f = new Fleet(payload());
  const moving = STATUSES.indexOf("moving");
  assert.deepEqual(f.applyPositions([["222222222222222", 23, 115, 40, 180, 2000, moving]]), [1]);
  assert.equal(f.data.lat[1], 23);
  assert.equal(f.status(1), "moving");
  assert.deepEqual(f.applyPositions([["222222222222222", 1, 1, 1, 1, 1500, moving]]), []);
  assert.equal(f.data.lat[1], 23);
  assert.deepEqual(f.applyPositions([["999999999999999", 1, 1, 1, 1, 1, 0]]), []);
  assert.deepEqual(f.counts(), {
    all: 4,
    moving: 2,
    idling: 0,
    stopped: 1,
    offline: 0,
    notActivated: 1,
  });
});
