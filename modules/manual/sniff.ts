/**
 * The real type of an uploaded document from its bytes; the name's extension must agree.
 * PDF by its header, Word and PowerPoint 97-2003 as OLE2 compound files, docx and pptx as
 * zips holding their main part, zip by a readable central directory, text as UTF-8 without
 * NUL bytes.
 */
import { ArchiveInvalid, unzipSafe } from "../../lib/archive.ts";
import { type DocType, MAX_DOC_BYTES } from "./model.ts";

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** A zip's central directory is read, nothing inflated: the file is stored as uploaded. */
const ZIP_NAMES = { maxEntries: 20_000, maxTotalBytes: MAX_DOC_BYTES, maxRatio: 1 };
/** The part that makes an Office Open XML package a document or a presentation. */
const MAIN_PART: Partial<Record<DocType, string>> = {
  docx: "word/document.xml",
  pptx: "ppt/presentation.xml",
};

const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

/** Names of a zip's entries, or null when the bytes are not a readable zip. */
function zipNames(bytes: Uint8Array): string[] | null {
  if (
    !startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && !startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])
  ) {
    return null;
  }
  const names: string[] = [];
  try {
    unzipSafe(bytes, ZIP_NAMES, (name) => {
      names.push(name);
      return false;
    });
  } catch (e) {
    if (e instanceof ArchiveInvalid) return null;
    throw e; // too many entries: the catalogue's archiveTooLarge
  }
  return names;
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Does the content fit the type the name claims? */
export function contentMatches(bytes: Uint8Array, type: DocType): boolean {
  switch (type) {
    case "pdf":
      return startsWith(bytes, [...new TextEncoder().encode("%PDF-")]);
    case "doc":
    case "ppt":
      return startsWith(bytes, OLE2);
    case "docx":
    case "pptx":
      return zipNames(bytes)?.includes(MAIN_PART[type]!) ?? false;
    case "zip":
      return zipNames(bytes) !== null;
    case "txt":
      return bytes.length > 0 && isText(bytes);
  }
}
