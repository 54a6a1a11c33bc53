import assert from "node:assert/strict";
import {
  bbox,
  bboxOverlapsSegment,
  contains,
  haversine,
  isClosed,
  pointInPolygon,
  polygonSpan,
  segmentTouches,
  type Shape,
} from "./geometry.ts";

const center = { lat: 22.5431, lng: 114.0579 };
const circle: Shape = { kind: "circle", center, radius: 500 };
// ~1.1 km square around the centre, closed ring.
const square = [
  { lat: 22.538, lng: 114.052 },
  { lat: 22.538, lng: 114.063 },
  { lat: 22.548, lng: 114.063 },
  { lat: 22.548, lng: 114.052 },
  { lat: 22.538, lng: 114.052 },
];
const polygon: Shape = { kind: "polygon", points: square };

Deno.test("haversine: one degree of latitude is about 111.2 km; zero for the same point", () => {
  assert.ok(Math.abs(haversine({ lat: 0, lng: 0 }, { lat: 1, lng: 0 }) - 111_195) < 10);
  assert.equal(haversine(center, center), 0);
});

Deno.test("point in circle and polygon, inside and outside", () => {
  assert.ok(contains(circle, { lat: 22.5440, lng: 114.0579 })); // ~100 m north
  assert.ok(!contains(circle, { lat: 22.5531, lng: 114.0579 })); // ~1.1 km north
  assert.ok(pointInPolygon(center, square));
  assert.ok(!pointInPolygon({ lat: 22.55, lng: 114.0579 }, square));
  assert.ok(!contains(polygon, { lat: 22.5431, lng: 114.07 }));
});

Deno.test("two sparse fixes on either side of a fence cross it, a path beside it does not", () => {
  const west = { lat: 22.5431, lng: 114.03 }, east = { lat: 22.5431, lng: 114.09 };
  assert.ok(!contains(circle, west) && !contains(circle, east));
  assert.ok(segmentTouches(circle, west, east));
  assert.ok(segmentTouches(polygon, west, east));
  const northW = { lat: 22.56, lng: 114.03 }, northE = { lat: 22.56, lng: 114.09 };
  assert.ok(!segmentTouches(circle, northW, northE));
  assert.ok(!segmentTouches(polygon, northW, northE));
  // A segment ending inside touches too.
  assert.ok(segmentTouches(circle, west, center));
});

Deno.test("polygon span, closed rings and bounding boxes", () => {
  const span = polygonSpan(square);
  assert.ok(span > 1400 && span < 1700, `span ${span}`);
  assert.ok(isClosed(square));
  assert.ok(!isClosed(square.slice(0, 4)));
  const b = bbox(circle);
  assert.ok(b.minLat < center.lat && b.maxLat > center.lat);
  assert.ok(bboxOverlapsSegment(b, { lat: 22.5431, lng: 114.03 }, { lat: 22.5431, lng: 114.09 }));
  assert.ok(!bboxOverlapsSegment(b, { lat: 23, lng: 114 }, { lat: 23.1, lng: 114.1 }));
});
