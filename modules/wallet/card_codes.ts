import ExcelJS from "exceljs";
import { ArchiveInvalid, checkArchive, XLSX_LIMITS } from "../../lib/archive.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import { CARD_CODE_PATTERN, type CardCode, type CardType, MAX_CODES_PER_IMPORT } from "./model.ts";
import { isPlatform } from "./service.ts";
import type { WalletStore } from "./store.ts";

/** Most bytes of a code file: 10,000 codes of 32 characters with separators fit in 1 MB. */
export const MAX_CODE_FILE_BYTES = 1024 * 1024;

/** A header line of a code file ("code", "Card code", "卡号") is not a code. */
const HEADER = /^(card ?)?codes?$|^卡号$|^卡密$/i;

const refuse = (reason: string) => new BizError("cardCodesInvalid", { reason });

/**
 * Recharge card codes (spec card import, licence errors): the platform administrator imports
 * codes of one card type from a file and lists them; users redeem them (WalletService.redeem).
 */
export class CardCodes {
  constructor(private readonly store: WalletStore, private readonly access: AccessGuard) {}

  private async admin(session: Session) {
    const { self, owner } = await this.access.caller(session);
    if (!isPlatform(owner) || self.virtual) throw new BizError("permissionDenied");
    return owner;
  }

  /**
   * Imports the codes of a file (xlsx: first column of the first sheet; text or CSV: the
   * first field of each line), all of one type. Codes already stored or repeated in the file
   * are skipped and counted; a malformed code refuses the whole file, naming its line.
   */
  async import(session: Session, type: CardType, file: Uint8Array) {
    const admin = await this.admin(session);
    const lines = await readCodes(file);
    const seen = new Set<string>();
    let repeated = 0;
    for (const { line, code } of lines) {
      if (!CARD_CODE_PATTERN.test(code)) throw refuse(`line ${line}: "${code.slice(0, 40)}"`);
      if (seen.has(code)) repeated++;
      seen.add(code);
    }
    if (seen.size === 0) throw refuse("no codes");
    if (lines.length > MAX_CODES_PER_IMPORT) throw refuse(`over ${MAX_CODES_PER_IMPORT} codes`);
    const existing = await this.store.existingCodes([...seen]);
    const importedAt = new Date().toISOString();
    const fresh: CardCode[] = [...seen].filter((c) => !existing.has(c))
      .map((code) => ({ code, type, importedAt, importedBy: admin.id }));
    const added = await this.store.addCodes(fresh);
    return { added, existing: seen.size - added, repeated };
  }

  async list(session: Session, used: boolean | undefined, pageNum: number, pageSize: number) {
    await this.admin(session);
    return await this.store.codes(used, (pageNum - 1) * pageSize, pageSize);
  }
}

/** Codes of an uploaded file with their line numbers, checked by content (not by name). */
export async function readCodes(file: Uint8Array): Promise<{ line: number; code: string }[]> {
  if (file.byteLength > MAX_CODE_FILE_BYTES) throw new BizError("fileTooLarge");
  const isZip = file[0] === 0x50 && file[1] === 0x4b && file[2] === 0x03 && file[3] === 0x04;
  return isZip ? await xlsxCodes(file) : textCodes(file);
}

function textCodes(file: Uint8Array) {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(file);
  } catch {
    throw refuse("not UTF-8 text");
  }
  if (text.includes("\0")) throw refuse("not a text file");
  const out: { line: number; code: string }[] = [];
  text.replace(/^\uFEFF/, "").split(/\r?\n/).forEach((l, i) => {
    const code = l.split(/[,;\t]/)[0].trim().replace(/^"(.*)"$/, "$1");
    if (code) out.push({ line: i + 1, code });
  });
  if (out.length && HEADER.test(out[0].code)) out.shift();
  return out;
}

async function xlsxCodes(file: Uint8Array) {
  try {
    checkArchive(file, XLSX_LIMITS);
  } catch (e) {
    if (!(e instanceof ArchiveInvalid)) throw e;
    throw refuse("not an xlsx workbook");
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(
      file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
    );
  } catch {
    throw refuse("not an xlsx workbook");
  }
  const ws = wb.worksheets[0];
  if (!ws) throw refuse("no sheet");
  const out: { line: number; code: string }[] = [];
  ws.eachRow((row, n) => {
    const v = row.getCell(1).value;
    const code = v === null || v === undefined
      ? ""
      : typeof v === "object" && "text" in v
      ? String(v.text)
      : String(v);
    if (code.trim()) out.push({ line: n, code: code.trim() });
  });
  if (out.length && HEADER.test(out[0].code)) out.shift();
  return out;
}
