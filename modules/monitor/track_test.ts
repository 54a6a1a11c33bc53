import assert from "node:assert/strict";
import { detectStops, indexAt } from "./track.ts";
import { toGpx, toKml, type TrackPoint } from "./track_export.ts";

const MIN = 60_000;
const pt = (time: number, speed: number, lat = 22.5, lng = 114): TrackPoint => ({
  time,
  lat,
  lng,
  speed,
  course: 90,
  altitude: 12.34,
});

Deno.test("stops: a halt of at least 3 minutes is marked, a traffic light is not", () => {
  const pts = [
    pt(0, 40),
    pt(1 * MIN, 0), // 1 minute halt (light)
    pt(2 * MIN, 50),
    pt(3 * MIN, 2, 22.6, 114.1), // parked 5 minutes
    pt(5 * MIN, 0),
    pt(8 * MIN, 30),
  ];
  const stops = detectStops(pts);
  assert.equal(stops.length, 1);
  assert.deepEqual(
    [stops[0].from, stops[0].to, stops[0].start, stops[0].end],
    [3, 4, 3 * MIN, 8 * MIN],
  );
  assert.equal(stops[0].lat, 22.6);
});

Deno.test("stops: a reporting gap while parked counts as a stop", () => {
  const stops = detectStops([pt(0, 40), pt(30 * MIN, 40)]);
  assert.equal(stops.length, 1);
  assert.equal(stops[0].end - stops[0].start, 30 * MIN);
});

Deno.test("indexAt finds the last point at or before a time", () => {
  const times = [10, 20, 30, 40];
  assert.equal(indexAt(times, 5), 0);
  assert.equal(indexAt(times, 20), 1);
  assert.equal(indexAt(times, 29), 1);
  assert.equal(indexAt(times, 99), 3);
  assert.equal(indexAt([], 5), 0);
});

Deno.test("GPX export is GPX 1.1 with one track point per position", () => {
  const gpx = toGpx("Truck <7> & co", [
    pt(Date.UTC(2026, 0, 1), 10),
    pt(Date.UTC(2026, 0, 1, 0, 0, 5), 20),
  ]);
  assert.match(gpx, /^<\?xml version="1.0" encoding="UTF-8"\?>/);
  assert.match(
    gpx,
    /<gpx version="1.1" creator="Tracking Platform" xmlns="http:\/\/www.topografix.com\/GPX\/1\/1">/,
  );
  assert.match(gpx, /<name>Truck &lt;7&gt; &amp; co<\/name>/);
  assert.equal(gpx.match(/<trkpt /g)?.length, 2);
  assert.match(
    gpx,
    /<trkpt lat="22.500000" lon="114.000000"><ele>12.3<\/ele><time>2026-01-01T00:00:05Z<\/time><\/trkpt>/,
  );
});

Deno.test("KML export has a line and a timed gx:Track in lng,lat order", () => {
  const kml = toKml("T1", [
    pt(Date.UTC(2026, 0, 1), 10),
    pt(Date.UTC(2026, 0, 1, 0, 1), 20, 22.51, 114.01),
  ]);
  assert.match(kml, /<kml xmlns="http:\/\/www.opengis.net\/kml\/2.2"/);
  assert.match(
    kml,
    /<coordinates>114.000000,22.500000,12.3 114.010000,22.510000,12.3<\/coordinates>/,
  );
  assert.equal(kml.match(/<when>/g)?.length, 2);
  assert.match(kml, /<gx:coord>114.010000 22.510000 12.3<\/gx:coord>/);
});
