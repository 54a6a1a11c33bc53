/**
 * Commands across a cluster's instances (issue 23): a command for a device connected to
 * another live instance is handed to that instance (request on `tp.cmd.<instanceId>`), which
 * writes it on its connection and matches the reply there; the record is in the shared store,
 * so every instance sees the result. Single mode has no route.
 */
import { BizError, type ErrorName } from "../../lib/errors.ts";
import { type ClusterLink, SUBJECTS } from "../../lib/cluster/types.ts";
import type { DeviceSessions } from "../gateway/types.ts";
import type { CommandRecord } from "./types.ts";

/** What the service needs to reach other instances. */
export interface CommandRoute {
  link: ClusterLink;
  instanceId: string;
  sessions: DeviceSessions;
}

/** How long the sending instance waits for the holder to have written the command. */
export const ROUTE_TIMEOUT_MS = 5000;

/** The holder's answer: the record as it stored it ("sending"), or the refusal. */
export type RouteAnswer = { record: CommandRecord } | { error: ErrorName };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const subject = (instanceId: string) => `${SUBJECTS.command}.${instanceId}`;

/** Hands the command to the holder; null when it did not answer (gone, or too slow). */
export async function deliverThere(
  route: CommandRoute,
  holder: string,
  record: CommandRecord,
): Promise<RouteAnswer | null> {
  try {
    const answer = await route.link.request(
      subject(holder),
      encoder.encode(JSON.stringify({ record })),
      ROUTE_TIMEOUT_MS,
    );
    return JSON.parse(decoder.decode(answer)) as RouteAnswer;
  } catch {
    return null;
  }
}

/** Answers this instance's command requests with `deliverHere`; returns the unsubscribe. */
export function serveRoute(
  route: CommandRoute,
  deliverHere: (record: CommandRecord) => Promise<CommandRecord>,
): () => void {
  return route.link.reply(subject(route.instanceId), async (data) => {
    const { record } = JSON.parse(decoder.decode(data)) as { record: CommandRecord };
    let answer: RouteAnswer;
    try {
      answer = { record: await deliverHere(record) };
    } catch (e) {
      if (!(e instanceof BizError)) throw e;
      answer = { error: e.key };
    }
    return encoder.encode(JSON.stringify(answer));
  });
}
