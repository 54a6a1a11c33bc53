/** The geofence editor's place search over the user's own zones (issue 15). */
import assert from "node:assert/strict";
import type { Zone } from "../../modules/geofences/model.ts";
import { matchZones, MAX_ZONE_HITS, placeDetail, zoneCenter } from "./places.ts";

const zone = (id: string, kind: Zone["kind"], name: string, lat = 22.5, lng = 114): Zone => ({
  id,
  kind,
  userId: "u1",
  name,
  description: "",
  groupId: "g",
  shape: { kind: "circle", center: { lat, lng }, radius: 300 },
  color: "#3b7aff",
  enterAlert: false,
  exitAlert: false,
  notInAlert: false,
  notOutAlert: false,
  stayDays: 1,
  command: "",
  emailAlert: false,
  imeis: [],
  review: null,
  createdAt: "",
  updatedAt: "",
});

Deno.test("matchZones: landmarks before fences, name starts before contains", () => {
  const zones = [
    zone("f1", "fence", "Depot gate"),
    zone("l1", "landmark", "North depot"),
    zone("l2", "landmark", "Depot Futian"),
    zone("b1", "blackCar", "Depot of a chop shop"),
    zone("l3", "landmark", "Harbour"),
  ];
  assert.deepEqual(matchZones("depot", zones).map((h) => h.id), ["l2", "l1", "f1", "b1"]);
  assert.deepEqual(matchZones("  DEPOT fu ", zones).map((h) => h.id), ["l2"]);
  assert.deepEqual(matchZones("", zones), []);
  assert.deepEqual(matchZones("airport", zones), []);
  const hit = matchZones("harb", zones)[0];
  assert.equal(hit.kind, "landmark");
  assert.deepEqual(hit.at, { lat: 22.5, lng: 114 });
  assert.equal(hit.zone?.id, "l3");
});

Deno.test("matchZones: at most a screenful of hits", () => {
  const many = Array.from({ length: 30 }, (_, i) => zone(`l${i}`, "landmark", `Stop ${i}`));
  assert.equal(matchZones("stop", many).length, MAX_ZONE_HITS);
});

Deno.test("zoneCenter: a circle's centre, a polygon's corner average (ring closed once)", () => {
  assert.deepEqual(zoneCenter(zone("a", "fence", "a", 1, 2)), { lat: 1, lng: 2 });
  const square = {
    shape: {
      kind: "polygon" as const,
      points: [
        { lat: 0, lng: 0 },
        { lat: 0, lng: 2 },
        { lat: 2, lng: 2 },
        { lat: 2, lng: 0 },
        { lat: 0, lng: 0 },
      ],
    },
  };
  assert.deepEqual(zoneCenter(square), { lat: 1, lng: 1 });
});

Deno.test("placeDetail: region and country without repeating the name", () => {
  assert.equal(placeDetail("Shenzhen", "Shenzhen, Guangdong, China"), "Guangdong, China");
  assert.equal(placeDetail("Berlin", "Berlin"), "");
  assert.equal(placeDetail("Futian", "Shenzhen, Guangdong, China"), "Shenzhen, Guangdong, China");
});
