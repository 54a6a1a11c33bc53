/**
 * Generic shape of a text frame: `*<maker>,<id>,<type>,<field>,...#`.
 *
 * The maker is a two-letter vendor tag (HQ, hq, TH, ...) that the server echoes back.
 */

export interface TextFrame {
  maker: string;
  /** Device id as sent; may be empty (some firmwares omit it after the first frame). */
  id: string;
  /** Message type, upper-cased: V1, V4, NBR, HTBT, LINK, SMS, ... */
  type: string;
  /** Comma-separated fields after the type. */
  fields: string[];
  /** Everything after `<type>,`, unsplit (SMS bodies contain commas and newlines). */
  body: string;
}

/** Ids are IMEIs or 10-digit serials; anything else is rejected so junk never becomes a device. */
const DEVICE_ID = /^[0-9A-Za-z]{0,20}$/;

export function parseTextFrame(text: string): TextFrame | undefined {
  // Tolerate the CR/LF some firmwares put after '#'.
  const trimmed = text.replace(/[\r\n\s]+$/, "");
  if (!trimmed.startsWith("*") || !trimmed.endsWith("#")) return undefined;
  const content = trimmed.slice(1, -1);
  const firstComma = content.indexOf(",");
  const secondComma = content.indexOf(",", firstComma + 1);
  if (firstComma < 0 || secondComma < 0) return undefined;
  const maker = content.slice(0, firstComma);
  const id = content.slice(firstComma + 1, secondComma);
  if (!DEVICE_ID.test(id)) return undefined;
  const rest = content.slice(secondComma + 1);
  const typeEnd = rest.indexOf(",");
  const type = (typeEnd < 0 ? rest : rest.slice(0, typeEnd)).toUpperCase();
  const body = typeEnd < 0 ? "" : rest.slice(typeEnd + 1);
  return { maker, id, type, fields: typeEnd < 0 ? [] : body.split(","), body };
}
