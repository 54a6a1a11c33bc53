/**
 * The seam between the Open API's frame (modules/openapi: app keys, tokens, signature, rate
 * limits, `POST /route/rest` dispatch, push endpoints) and its methods (modules/openapi/methods/*).
 * Not for browser code.
 */
import type { z } from "zod";
import type { Need } from "../../lib/http/api.ts";
import type { Session } from "../../lib/http/env.ts";

/** Tracksolid Open API answer codes (the public table; the reference page lists them all). */
export const OPEN_CODES = {
  ok: 0,
  busy: -1,
  parameter: 1001,
  illegalUserOrDevice: 1002,
  noPermission: 1003,
  token: 1004,
  ipOverLimit: 1005,
  tooFrequent: 1006,
  appKey: 1007,
  method: 1008,
  business: 1100,
  deviceExists: 1112,
  fenceNameExists: 1114,
  instructionNotExists: 12001,
  instructionDeviceOffline: 12002,
  instructionSendFailed: 12003,
  instructionTimeout: 12004,
  instructionNotSupported: 12005,
} as const;
export type OpenCode = typeof OPEN_CODES[keyof typeof OPEN_CODES];

/** A refusal a method throws; the frame turns it into `{code, message}`. */
export class OpenApiError extends Error {
  constructor(readonly code: OpenCode, message: string) {
    super(message);
  }
}

/** Key scopes (issue 22): read; commands = the sendCommands need; manage = editData + manageAccounts. */
export const KEY_SCOPES = ["read", "commands", "manage"] as const;
export type KeyScope = typeof KEY_SCOPES[number];

export interface OpenCall {
  /** The session the access token acts as (the key owner or the account token.get named). */
  session: Session;
  /** The app key the call was signed with. */
  appKey: string;
  /** The method's parameters, common parameters removed, validated by the method's schema. */
  params: Record<string, unknown>;
  /** The calling client (token.get counts login attempts per address); absent in unit tests. */
  client?: { ip: string; userAgent: string };
  /** This server's origin as the client reached it (links a method answers are absolute). */
  origin?: string;
}

/**
 * A payload already written as JSON (a track's points: megabytes, cached per stored block):
 * `open`, the parts joined with commas, `close`. The frame writes it in place of the value
 * (modules/openapi/methods/raw_json.ts answerBytes does exactly that).
 */
export class RawJson {
  constructor(
    readonly parts: readonly Uint8Array[],
    readonly open = "[",
    readonly close = "]",
  ) {}
}

/** Where a method's payload goes in the answer, per the public examples. */
export interface OpenAnswer {
  result?: unknown;
  data?: unknown;
}

export interface OpenMethod<S extends z.ZodTypeAny = z.ZodTypeAny> {
  name: string; // e.g. "jimi.device.location.get"
  /** The need the access guard checks, like an API route's; the key's scope must cover it. */
  need: Need;
  /** Validates the method's own parameters (strings, as form posts carry them). */
  params: S;
  /** False only for jimi.oauth.token.get/refresh: they run without an access_token. */
  tokenRequired?: boolean;
  run(call: OpenCall & { params: z.infer<S> }): Promise<OpenAnswer>;
}
