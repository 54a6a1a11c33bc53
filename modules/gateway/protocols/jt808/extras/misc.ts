/** Vendor items that fit no other family: firmware, container, geofence, fuel, timezone. */
import { trimControl } from "../bytes.ts";
import type { ExtraTable } from "./types.ts";

export const MISC_EXTRAS: ExtraTable = {
  // Fuel, 1/10 L (DWORD).
  0xe2: (v, out) => out.set("fuel", v.u32() / 10),
  0xf2: (v, out, ctx) => out.set("versionFw", trimControl(v.latin1(ctx.length))),
  0xfb: (v, out, ctx) => out.set("container", v.latin1(ctx.length)),
  0xfc: (v, out) => out.set("geofence", v.u8()),
};
