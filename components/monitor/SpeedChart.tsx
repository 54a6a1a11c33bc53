/**
 * Speed over time on a canvas, linked to the playback: a cursor at the current time, hover
 * reports the point under the mouse, click seeks. Min/max per pixel column keeps 268,000
 * points at one line per column.
 */
import { useEffect, useRef } from "react";
import { indexAt } from "../../modules/monitor/track.ts";
import type { Track } from "./trackdata.ts";

export function SpeedChart(
  { track, current, hover, onHover, onSeek, convert, label }: {
    track: Track;
    current: number;
    hover: number;
    onHover: (i: number) => void;
    onSeek: (time: number) => void;
    /** km/h → the user's unit. */
    convert: (kmh: number) => number;
    label: string;
  },
) {
  const ref = useRef<HTMLCanvasElement>(null);
  const base = useRef<ImageBitmap | HTMLCanvasElement | null>(null);
  const size = useRef({ w: 0, h: 0 });
  const pad = { l: 36, r: 8, t: 8, b: 18 };

  const x = (time: number) =>
    pad.l + (time - track.time[0]) / Math.max(1, track.time[track.n - 1] - track.time[0]) *
      (size.current.w - pad.l - pad.r);

  // The static chart is drawn once per track and size; the cursor is drawn over it.
  const drawBase = () => {
    const c = ref.current!;
    const dpr = devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    size.current = { w, h };
    const off = document.createElement("canvas");
    off.width = w * dpr;
    off.height = h * dpr;
    const g = off.getContext("2d")!;
    g.scale(dpr, dpr);
    const max = Math.max(10, convert(track.maxSpeed) * 1.1);
    const y = (v: number) => pad.t + (1 - v / max) * (h - pad.t - pad.b);
    g.font = "10px system-ui, sans-serif";
    g.fillStyle = "#8a94a6";
    g.strokeStyle = "#eef1f6";
    for (const f of [0, 0.5, 1]) {
      const v = max * f;
      g.beginPath();
      g.moveTo(pad.l, y(v));
      g.lineTo(w - pad.r, y(v));
      g.stroke();
      g.fillText(String(Math.round(v)), 4, y(v) + 3);
    }
    const cols = Math.max(1, Math.floor(w - pad.l - pad.r));
    const lo = new Float32Array(cols).fill(Infinity), hi = new Float32Array(cols).fill(-1);
    for (let i = 0; i < track.n; i++) {
      const col = Math.min(cols - 1, Math.max(0, Math.floor(x(track.time[i]) - pad.l)));
      const v = convert(track.speed[i]);
      if (v < lo[col]) lo[col] = v;
      if (v > hi[col]) hi[col] = v;
    }
    const grad = g.createLinearGradient(0, pad.t, 0, h - pad.b);
    grad.addColorStop(0, "rgba(59,122,255,0.35)");
    grad.addColorStop(1, "rgba(59,122,255,0.02)");
    g.beginPath();
    g.moveTo(pad.l, y(0));
    for (let col = 0; col < cols; col++) if (hi[col] >= 0) g.lineTo(pad.l + col, y(hi[col]));
    g.lineTo(pad.l + cols - 1, y(0));
    g.closePath();
    g.fillStyle = grad;
    g.fill();
    g.beginPath();
    let started = false;
    for (let col = 0; col < cols; col++) {
      if (hi[col] < 0) continue;
      if (!started) g.moveTo(pad.l + col, y(hi[col]));
      g.lineTo(pad.l + col, y(hi[col]));
      if (lo[col] < hi[col]) g.lineTo(pad.l + col, y(lo[col]));
      started = true;
    }
    g.strokeStyle = "#3b7aff";
    g.lineWidth = 1.2;
    g.stroke();
    base.current = off;
  };

  const drawCursor = () => {
    const c = ref.current;
    if (!c || !base.current) return;
    const dpr = devicePixelRatio || 1;
    const { w, h } = size.current;
    if (c.width !== w * dpr || c.height !== h * dpr) {
      c.width = w * dpr;
      c.height = h * dpr;
    }
    const g = c.getContext("2d")!;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, c.width, c.height);
    g.drawImage(base.current as HTMLCanvasElement, 0, 0);
    g.scale(dpr, dpr);
    const line = (i: number, color: string) => {
      if (i < 0 || i >= track.n) return;
      const px = x(track.time[i]);
      g.strokeStyle = color;
      g.lineWidth = 1.5;
      g.beginPath();
      g.moveTo(px, pad.t);
      g.lineTo(px, h - pad.b);
      g.stroke();
    };
    line(hover, "rgba(31,39,51,0.35)");
    line(current, "#e5484d");
  };

  useEffect(() => {
    drawBase();
    drawCursor();
    const ro = new ResizeObserver(() => {
      drawBase();
      drawCursor();
    });
    ro.observe(ref.current!);
    return () => ro.disconnect();
  }, [track]);
  useEffect(drawCursor, [current, hover]);

  const timeAt = (e: MouseEvent) => {
    const r = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const f = (e.clientX - r.left - pad.l) / Math.max(1, r.width - pad.l - pad.r);
    return track.time[0] + Math.min(1, Math.max(0, f)) * (track.time[track.n - 1] - track.time[0]);
  };
  return (
    <canvas
      ref={ref}
      class="mon-chart"
      role="img"
      aria-label={label}
      onMouseMove={(e) => onHover(indexAt(track.time, timeAt(e)))}
      onMouseLeave={() => onHover(-1)}
      onClick={(e) => onSeek(timeAt(e))}
    />
  );
}
