/**
 * JT/T 1078 signalling in cluster mode (issue 23): a terminal's JT/T 808 connection is on one
 * instance, the API call that asks it for video on any. VideoLink asks this relay when the
 * connection is not here: the relay finds the holder (the gateway's device sessions) and has
 * it send the request and wait for the terminal's answer there (its VideoLink sees the
 * answers), over `tp.media.<holder>` (ClusterMediaHub's responder hands "signal" requests on).
 */
import { BizError, CATALOGUE, type ErrorName } from "../../lib/errors.ts";
import { type ClusterLink, LinkRemoteError, SUBJECTS } from "../../lib/cluster/types.ts";
import type { DeviceSessions, LiveConnection } from "../gateway/types.ts";
import type { VideoRequest, VideoResource } from "../gateway/protocols/types.ts";

/** What the requester asks of the holder. */
export type SignalCall =
  | { signal: "describe"; imei: string }
  | { signal: "send"; imei: string; request: VideoRequest }
  | { signal: "request"; imei: string; request: VideoRequest; timeoutMs: number }
  | {
    signal: "resources";
    imei: string;
    channel: number;
    start: number;
    end: number;
    timeoutMs: number;
  };

/** A connection on another instance, as described by it. */
export type RemoteTerminal = Pick<LiveConnection, "imei" | "protocol" | "remote"> & {
  holder: string;
};

/** What the holder runs a call with: its own VideoLink. */
export interface SignalTarget {
  connection(imei: string): LiveConnection;
  send(imei: string, request: VideoRequest): Promise<number>;
  request(imei: string, request: VideoRequest, timeoutMs: number): Promise<boolean | null>;
  resources(
    imei: string,
    channel: number,
    start: number,
    end: number,
    timeoutMs: number,
  ): Promise<VideoResource[] | null>;
}

const enc = new TextEncoder(), dec = new TextDecoder();
/** Extra time over a call's own wait for the round trip. */
const SLACK_MS = 5_000;

export class SignalRelay {
  constructor(
    private readonly link: ClusterLink,
    private readonly sessions: Pick<DeviceSessions, "holderElsewhere">,
  ) {}

  /** The device's connection on another live instance, or null. */
  async locate(imei: string): Promise<RemoteTerminal | null> {
    const holder = await this.sessions.holderElsewhere(imei);
    if (!holder) return null;
    const found = await this.ask<Omit<RemoteTerminal, "holder"> | null>(
      holder,
      { signal: "describe", imei },
      SLACK_MS,
    );
    return found ? { ...found, holder } : null;
  }

  /** Runs the call on the holder; its BizError (offline…) comes back as one. */
  async call<T>(holder: string, call: SignalCall): Promise<T> {
    const wait = "timeoutMs" in call ? call.timeoutMs : 0;
    return await this.ask<T>(holder, call, wait + SLACK_MS);
  }

  private async ask<T>(holder: string, call: SignalCall, timeoutMs: number): Promise<T> {
    try {
      const answer = await this.link.request(
        `${SUBJECTS.media}.${holder}`,
        enc.encode(JSON.stringify({ op: "signal", call })),
        timeoutMs,
      );
      return JSON.parse(dec.decode(answer)) as T;
    } catch (e) {
      const key = e instanceof LinkRemoteError && e.message.startsWith("biz:")
        ? e.message.slice(4)
        : "";
      if (key in CATALOGUE) throw new BizError(key as ErrorName);
      throw new BizError("deviceOffline");
    }
  }
}

/** The holder's side: runs a forwarded call on its own VideoLink. */
export async function runSignal(target: SignalTarget, call: SignalCall): Promise<Uint8Array> {
  let result: unknown;
  try {
    result = await runCall(target, call);
  } catch (e) {
    // The catalogue key travels as the remote error's message (LinkRemoteError).
    if (e instanceof BizError) throw new Error(`biz:${e.key}`);
    throw e;
  }
  return enc.encode(JSON.stringify(result ?? null));
}

async function runCall(target: SignalTarget, call: SignalCall): Promise<unknown> {
  switch (call.signal) {
    case "describe": {
      const conn = (() => {
        try {
          return target.connection(call.imei);
        } catch {
          return null;
        }
      })();
      return conn && { imei: conn.imei, protocol: conn.protocol, remote: conn.remote };
    }
    case "send":
      return await target.send(call.imei, call.request);
    case "request":
      return await target.request(call.imei, call.request, call.timeoutMs);
    case "resources":
      return await target.resources(call.imei, call.channel, call.start, call.end, call.timeoutMs);
  }
}
