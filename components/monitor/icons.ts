/**
 * Vehicle sprites for the map: a badge coloured by status with the white glyph of the
 * device's application type (spec §3: car, bus, truck, taxi, motorcycle, drone, person,
 * asset, other) and, for moving and idling vehicles, a heading pointer turned to the
 * course's 45° compass bucket. The glyph stays upright so it reads at a glance; the pointer
 * carries the direction. Sprites are drawn once per (type, status, bucket, selected, size,
 * pixel ratio) and reused for every vehicle. Browser-only.
 */
import {
  mdiAccount,
  mdiBus,
  mdiCar,
  mdiMapMarker,
  mdiMotorbike,
  mdiPackageVariantClosed,
  mdiQuadcopter,
  mdiTaxi,
  mdiTruck,
} from "@mdi/js";
import { APPLICATION_TYPES } from "../../modules/devices/models.ts";
import { STATUSES } from "../../modules/monitor/objects.ts";
import { STATUS_COLORS } from "./status.ts";

/** 24×24 glyph paths (Material Design Icons) per application type. */
const GLYPHS: Record<(typeof APPLICATION_TYPES)[number], string> = {
  car: mdiCar,
  bus: mdiBus,
  truck: mdiTruck,
  taxi: mdiTaxi,
  motorcycle: mdiMotorbike,
  drone: mdiQuadcopter,
  person: mdiAccount,
  asset: mdiPackageVariantClosed,
  other: mdiMapMarker,
};

/** The glyph path of an application type index (unknown → "other"). */
export function glyphOf(type: number): string {
  return GLYPHS[APPLICATION_TYPES[type] ?? "other"] ?? mdiMapMarker;
}

/** Statuses whose heading is drawn (index in STATUSES ≤ this): moving and idling. */
const HEADING_UP_TO = 1;

export interface Sprite {
  canvas: HTMLCanvasElement;
  /** Half the sprite's size in CSS pixels (it is drawn centred on the vehicle). */
  half: number;
}

const sprites = new Map<number, Sprite>();
const paths = new Map<number, Path2D>();

/** The sprite of one vehicle look; `ratio` is the device pixel ratio of the map canvas. */
export function vehicleSprite(
  type: number,
  status: number,
  bucket: number,
  selected: boolean,
  small: boolean,
  ratio: number,
): Sprite {
  const heading = status <= HEADING_UP_TO;
  // A numeric key: type < 16, status < 8, bucket < 8, flags, ratio ×4 < 64.
  const key = ((((type * 8 + status) * 9 + (heading ? bucket : 8)) * 2 + (selected ? 1 : 0)) * 2 +
        (small ? 1 : 0)) * 64 + Math.min(63, Math.round(ratio * 4));
  let s = sprites.get(key);
  if (!s) {
    const look = { type, status, bucket: heading ? bucket : -1, selected, small };
    sprites.set(key, s = drawVehicle(look, ratio));
  }
  return s;
}

/** One vehicle look; bucket -1 draws no heading pointer. */
interface Look {
  type: number;
  status: number;
  bucket: number;
  selected: boolean;
  small: boolean;
}

function drawVehicle({ type, status, bucket, selected, small }: Look, ratio: number): Sprite {
  const r = (small ? 8 : 11) * (selected ? 1.25 : 1);
  const half = Math.ceil(r + (bucket >= 0 ? 10 : 3));
  const c = document.createElement("canvas");
  c.width = c.height = Math.ceil(half * 2 * ratio);
  const g = c.getContext("2d")!;
  g.scale(ratio, ratio);
  g.translate(half, half);
  const color = STATUS_COLORS[STATUSES[status]] ?? STATUS_COLORS.offline;
  const edge = selected ? "#111827" : "#ffffff";
  if (bucket >= 0) {
    // The pointer sits outside the badge, turned clockwise from north like a compass.
    g.save();
    g.rotate((bucket * Math.PI) / 4);
    g.beginPath();
    g.moveTo(0, -r - 8.5);
    g.lineTo(6.5, -r + 1.5);
    g.lineTo(-6.5, -r + 1.5);
    g.closePath();
    g.fillStyle = color;
    g.strokeStyle = edge;
    g.lineWidth = 1.5;
    g.fill();
    g.stroke();
    g.restore();
  }
  g.beginPath();
  g.arc(0, 0, r, 0, Math.PI * 2);
  g.fillStyle = color;
  g.fill();
  g.lineWidth = selected ? 2.5 : 2;
  g.strokeStyle = edge;
  g.stroke();
  const glyph = r * 1.25;
  g.translate(-glyph / 2, -glyph / 2);
  g.scale(glyph / 24, glyph / 24);
  g.fillStyle = "#ffffff";
  g.fill(glyphPath(type));
  return { canvas: c, half };
}

function glyphPath(type: number): Path2D {
  let p = paths.get(type);
  if (!p) paths.set(type, p = new Path2D(glyphOf(type)));
  return p;
}

const clusterSprites = new Map<string, Sprite>();

/** A counted cluster bubble; its size grows with the count's magnitude. */
export function clusterSprite(count: number, ratio: number): Sprite {
  const label = count > 999 ? `${Math.round(count / 100) / 10}k` : String(count);
  const key = `${label}@${ratio}`;
  let s = clusterSprites.get(key);
  if (s) return s;
  const r = Math.min(30, 13 + Math.log10(count) * 6);
  const half = Math.ceil(r + 5);
  const c = document.createElement("canvas");
  c.width = c.height = Math.ceil(half * 2 * ratio);
  const g = c.getContext("2d")!;
  g.scale(ratio, ratio);
  g.translate(half, half);
  // The margin around the bubble is left for the status ring the layer draws (see
  // vehicles.ts), which changes too often to be part of a cached sprite.
  g.beginPath();
  g.arc(0, 0, r, 0, Math.PI * 2);
  g.fillStyle = "#2b3a55"; // neutral: the ring around it carries the status colours
  g.fill();
  g.lineWidth = 2;
  g.strokeStyle = "#ffffff";
  g.stroke();
  g.fillStyle = "#ffffff";
  g.font = "600 12px system-ui, sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(label, 0, 0.5);
  s = { canvas: c, half };
  if (clusterSprites.size < 4000) clusterSprites.set(key, s);
  return s;
}
