/**
 * A block of one series' samples of one device-day, as columns (typed arrays are stored by KV
 * as their bytes): 17 bytes a sample, so a block of BLOCK_SAMPLES stays under KV's 64 KiB value
 * limit. Times are ms from the block's day start (a day fits a Uint32); places are Float32
 * (≈ 1 m), NaN where the report had none. Pure.
 */
import type { SampleColumns, SensorSample } from "./types.ts";

export interface SampleBlock {
  /** Epoch ms of the UTC day start. */
  t0: number;
  time: Uint32Array;
  value: Float32Array;
  /** Probe or input number, 0 for single-valued series. */
  index: Uint8Array;
  lat: Float32Array;
  lng: Float32Array;
}

/** Bytes a sample takes in a block. */
export const SAMPLE_BYTES = 4 + 4 + 1 + 4 + 4;
/** Samples a block holds at most (≈ 60 KB). */
export const BLOCK_SAMPLES = 3500;

export const DAY_MS = 86_400_000;

export const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Packs samples of one UTC day (any order; kept as given). */
export function packSamples(t0: number, samples: readonly SensorSample[]): SampleBlock {
  const n = samples.length;
  const b: SampleBlock = {
    t0,
    time: new Uint32Array(n),
    value: new Float32Array(n),
    index: new Uint8Array(n),
    lat: new Float32Array(n),
    lng: new Float32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const s = samples[i];
    b.time[i] = s.time - t0;
    b.value[i] = s.value;
    b.index[i] = s.index;
    b.lat[i] = s.lat ?? NaN;
    b.lng[i] = s.lng ?? NaN;
  }
  return b;
}

/** Appends the block's samples with from ≤ time < to to `out`. */
export function unpackSamples(
  b: SampleBlock,
  from: number,
  to: number,
  out: SensorSample[],
): void {
  for (let i = 0; i < b.time.length; i++) {
    const time = b.t0 + b.time[i];
    if (time < from || time >= to) continue;
    const s: SensorSample = { time, value: roundStored(b.value[i]), index: b.index[i] };
    if (!Number.isNaN(b.lat[i])) {
      s.lat = roundPlace(b.lat[i]);
      s.lng = roundPlace(b.lng[i]);
    }
    out.push(s);
  }
}

/** Float32 → the decimals a sensor gives (4), so 12.3 reads back as 12.3, not 12.300000190. */
const roundStored = (v: number) => Math.round(v * 1e4) / 1e4;
const roundPlace = (v: number) => Math.round(v * 1e6) / 1e6;

/** Samples in time order, then probe order (what the reader answers). */
export const byTimeAndIndex = (a: SensorSample, b: SensorSample) =>
  a.time - b.time || a.index - b.index;

/** Splits samples (one day) into blocks of at most BLOCK_SAMPLES. */
export function packDay(t0: number, samples: readonly SensorSample[]): SampleBlock[] {
  const out: SampleBlock[] = [];
  for (let i = 0; i < samples.length; i += BLOCK_SAMPLES) {
    out.push(packSamples(t0, samples.slice(i, i + BLOCK_SAMPLES)));
  }
  return out;
}

/** Blocks' samples with from ≤ time < to as columns, sorted by time then probe. */
export function blocksToColumns(blocks: SampleBlock[], from: number, to: number): SampleColumns {
  let n = 0;
  for (const b of blocks) {
    for (let i = 0; i < b.time.length; i++) {
      const t = b.t0 + b.time[i];
      if (t >= from && t < to) n++;
    }
  }
  const c: SampleColumns = {
    length: n,
    time: new Float64Array(n),
    value: new Float64Array(n),
    index: new Uint8Array(n),
    lat: new Float64Array(n),
    lng: new Float64Array(n),
  };
  let k = 0, sorted = true;
  for (const b of blocks) {
    for (let i = 0; i < b.time.length; i++) {
      const t = b.t0 + b.time[i];
      if (t < from || t >= to) continue;
      if (k > 0 && (t < c.time[k - 1] || (t === c.time[k - 1] && b.index[i] < c.index[k - 1]))) {
        sorted = false;
      }
      c.time[k] = t;
      c.value[k] = roundStored(b.value[i]);
      c.index[k] = b.index[i];
      c.lat[k] = Number.isNaN(b.lat[i]) ? NaN : roundPlace(b.lat[i]);
      c.lng[k] = Number.isNaN(b.lng[i]) ? NaN : roundPlace(b.lng[i]);
      k++;
    }
  }
  return sorted ? c : sortColumns(c);
}

/** Samples (objects) → columns, in the order given. */
export function samplesToColumns(samples: readonly SensorSample[]): SampleColumns {
  const n = samples.length;
  const c: SampleColumns = {
    length: n,
    time: new Float64Array(n),
    value: new Float64Array(n),
    index: new Uint8Array(n),
    lat: new Float64Array(n),
    lng: new Float64Array(n),
  };
  samples.forEach((s, i) => {
    c.time[i] = s.time;
    c.value[i] = s.value;
    c.index[i] = s.index;
    c.lat[i] = s.lat ?? NaN;
    c.lng[i] = s.lng ?? NaN;
  });
  return c;
}

function sortColumns(c: SampleColumns): SampleColumns {
  const order = Array.from({ length: c.length }, (_, i) => i)
    .sort((a, b) => c.time[a] - c.time[b] || c.index[a] - c.index[b]);
  const pick = <T extends Float64Array | Uint8Array>(col: T): T => {
    const out = new (col.constructor as { new (n: number): T })(col.length);
    order.forEach((from, to) => out[to] = col[from]);
    return out;
  };
  return {
    length: c.length,
    time: pick(c.time),
    value: pick(c.value),
    index: pick(c.index),
    lat: pick(c.lat),
    lng: pick(c.lng),
  };
}
