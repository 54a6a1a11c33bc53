import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import { ACCOUNT_TYPES } from "../accounts/model.ts";
import {
  DOC_EXTENSIONS,
  DOC_TYPES,
  type DocKind,
  type DocType,
  type HelpDocument,
  MAX_DOC_BYTES,
  MAX_DOCS,
} from "./model.ts";
import { contentMatches } from "./sniff.ts";
import type { ManualStore } from "./store.ts";

/** Kinds first (the manual before the API documents), then newest first. */
const byKindThenNewest = (a: HelpDocument, b: HelpDocument) =>
  a.kind === b.kind ? b.uploadedAt.localeCompare(a.uploadedAt) : a.kind === "manual" ? -1 : 1;

/**
 * The help documents: administrators upload and delete them, every logged-in user lists,
 * views and downloads them (they are the platform's, not an account's).
 */
export class ManualService {
  constructor(private readonly store: ManualStore, private readonly access: AccessGuard) {}

  /** Refuses anyone but a real administrator (before an upload is even read). */
  async assertAdmin(session: Session): Promise<void> {
    const { self, owner } = await this.access.caller(session);
    if (self.virtual || owner.accountType !== ACCOUNT_TYPES.administrator) {
      throw new BizError("permissionDenied");
    }
  }

  async upload(
    session: Session,
    doc: { kind: DocKind; title: string; fileName: string; bytes: Uint8Array },
  ): Promise<HelpDocument> {
    await this.assertAdmin(session);
    const types = DOC_EXTENSIONS.join(", ");
    if (doc.bytes.length > MAX_DOC_BYTES) {
      throw new BizError("fileTooLarge", { limit: `${MAX_DOC_BYTES / 1024 / 1024} MB` });
    }
    const ext = /\.([a-z]+)$/i.exec(doc.fileName)?.[1].toLowerCase() as DocType | undefined;
    if (!ext || !(ext in DOC_TYPES) || !contentMatches(doc.bytes, ext)) {
      throw new BizError("fileTypeInvalid", { types });
    }
    if ((await this.store.list()).length >= MAX_DOCS) {
      throw new BizError("quantityLimitExceeded", { limit: MAX_DOCS });
    }
    const { self } = await this.access.caller(session);
    const now = new Date().toISOString();
    const record: HelpDocument = {
      id: `${now.replace(/\D/g, "")}${crypto.randomUUID().slice(0, 6)}`,
      kind: doc.kind,
      title: doc.title || doc.fileName.replace(/\.[a-z]+$/i, ""),
      fileName: doc.fileName,
      type: ext,
      size: doc.bytes.length,
      uploadedAt: now,
      uploadedBy: self.account,
    };
    await this.store.add(record, doc.bytes);
    return record;
  }

  async list(): Promise<HelpDocument[]> {
    return (await this.store.list()).sort(byKindThenNewest);
  }

  /** The file: inline for viewing in the browser (PDF, text) or as an attachment. */
  async download(id: string, inline: boolean): Promise<Response> {
    const doc = await this.store.get(id);
    if (!doc) throw new BizError("dataNotExists");
    const viewable = doc.type === "pdf" || doc.type === "txt";
    const disposition = inline && viewable ? "inline" : "attachment";
    return new Response(this.store.read(doc.id), {
      headers: {
        "content-type": DOC_TYPES[doc.type],
        "content-length": String(doc.size),
        "content-disposition": `${disposition}; filename="${asciiName(doc.fileName)}"; ` +
          `filename*=UTF-8''${encodeURIComponent(doc.fileName)}`,
        "cache-control": "private, max-age=300",
        // Text is shown as itself, never as a page of this site (PDFs go to the browser's
        // viewer, which a sandbox would block).
        ...(doc.type === "pdf" ? {} : { "content-security-policy": "default-src 'none'; sandbox" }),
      },
    });
  }

  async delete(session: Session, id: string): Promise<void> {
    await this.assertAdmin(session);
    if (!(await this.store.get(id))) throw new BizError("dataNotExists");
    await this.store.delete(id);
  }
}

/** The name for the plain filename parameter: ASCII without quotes. */
const asciiName = (name: string) => name.replace(/[^\x20-\x7e]|["\\]/g, "_");

/** The name kept: the last path part, without control characters, at most 120 characters. */
export function cleanFileName(name: string): string {
  // deno-lint-ignore no-control-regex
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return base.length > 120 ? base.slice(-120) : base;
}
