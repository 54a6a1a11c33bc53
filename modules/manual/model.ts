/**
 * Help documents (spec console §6: administrators upload the user manual and the API
 * documents; every user views or downloads them). Shared by the API and the /userManual page.
 */

/** What a document is: the user manual or an API document. */
export const DOC_KINDS = ["manual", "api"] as const;
export type DocKind = typeof DOC_KINDS[number];

/** File types accepted, each checked by content (modules/manual/sniff.ts). */
export const DOC_TYPES = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  txt: "text/plain; charset=utf-8",
  zip: "application/zip",
} as const;
export type DocType = keyof typeof DOC_TYPES;
export const DOC_EXTENSIONS = Object.keys(DOC_TYPES) as DocType[];

/** Largest document: a manual with screenshots fits; it is kept in the store, not on disk. */
export const MAX_DOC_BYTES = 50 * 1024 * 1024;
/** Documents kept at once (the list is one page). */
export const MAX_DOCS = 100;
export const MAX_TITLE = 100;

export interface HelpDocument {
  id: string;
  kind: DocKind;
  title: string;
  /** The uploaded file name (control characters and path parts removed). */
  fileName: string;
  type: DocType;
  size: number;
  uploadedAt: string;
  /** Login name of the administrator who uploaded it. */
  uploadedBy: string;
}
