/** Push endpoints of the Open API: what an account registers and what it receives. */

/** What an endpoint receives: alarms, positions (batched), online/offline, command results. */
export const PUSH_KINDS = ["alarm", "position", "status", "command"] as const;
export type PushKind = typeof PUSH_KINDS[number];

/**
 * tracksolid: a form POST (`msgType`, `data` as a JSON string, `token`) as Tracksolid pushes;
 * json: our signed JSON webhook (X-Webhook-Signature, as alert webhooks).
 */
export const PUSH_FORMATS = ["tracksolid", "json"] as const;
export type PushFormat = typeof PUSH_FORMATS[number];

/** Endpoints per account. */
export const PUSH_ENDPOINT_LIMIT = 10;

/** The Tracksolid `msgType` of each kind. */
export const MSG_TYPES: Record<PushKind, string> = {
  alarm: "jimi.push.device.alarm",
  position: "jimi.push.device.gps",
  status: "jimi.push.device.status",
  command: "jimi.push.instruction.result",
};

export interface PushEndpoint {
  id: string;
  /** The account that registered it: it receives the events of its whole subtree's devices. */
  userId: string;
  url: string;
  kinds: PushKind[];
  format: PushFormat;
  /** The HMAC key of json pushes and the `token` field of tracksolid ones. */
  secret: string;
  createdAt: string;
}

/** An endpoint as the push API answers it (the secret whole: the receiver checks with it). */
export type PushEndpointRow = Omit<PushEndpoint, "userId">;

/** One delivery of POST /v3/new/openapi/push/log, with every attempt (times in ms). */
export interface PushDeliveryRow {
  id: string;
  url: string;
  /** "openapi." + the kind's Tracksolid msgType or our event name. */
  event: string;
  ok: boolean;
  attempts: { at: number; status: number | null; error: string | null }[];
  createdAt: number;
}
