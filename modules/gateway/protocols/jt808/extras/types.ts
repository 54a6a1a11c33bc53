/** Location report "additional information" items: BYTE id, BYTE length, value. */
import type { ByteReader } from "../bytes.ts";
import type { Readings } from "../readings.ts";

export interface ExtraContext {
  id: number;
  /** Declared length (= bytes in the value reader). */
  length: number;
}

/** Decodes one item. `value` holds exactly the item's bytes; reading past them throws Truncated. */
export type ExtraHandler = (value: ByteReader, out: Readings, ctx: ExtraContext) => void;

export type ExtraTable = Readonly<Record<number, ExtraHandler>>;
