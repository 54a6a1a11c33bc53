/**
 * Asking the instance that holds a device (cluster mode): what lives only in that instance's
 * memory (a motion analysis, sensor readings not appended yet) is read there, over
 * `<subject>.<instanceId>` request/reply with JSON both ways.
 */
import { log } from "../log.ts";
import type { ClusterLink } from "./types.ts";

const clusterLog = log.area("cluster");
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Which live instance other than this one holds a device (modules/gateway SessionRegistry). */
export interface DeviceHolders {
  readonly instanceId: string;
  holderElsewhere(imei: string): Promise<string | null>;
}

/** `holder` null: no other live instance holds the device (or it could not be looked up);
 * `answer` null: none, or no answer within the timeout. */
export interface HolderAnswer<T> {
  holder: string | null;
  answer: T | null;
}

export async function askHolder<T>(
  link: ClusterLink,
  holders: DeviceHolders,
  subject: string,
  imei: string,
  request: unknown,
  timeoutMs: number,
): Promise<HolderAnswer<T>> {
  const holder = await holders.holderElsewhere(imei).catch((e) => {
    clusterLog.warn(`${imei}: holder not looked up (${(e as Error).message})`);
    return null;
  });
  if (!holder) return { holder, answer: null };
  try {
    const data = encoder.encode(JSON.stringify(request));
    const reply = await link.request(`${subject}.${holder}`, data, timeoutMs);
    return { holder, answer: JSON.parse(decoder.decode(reply)) as T };
  } catch (e) {
    clusterLog.info(
      `${imei}: ${subject} holder ${holder} did not answer (${(e as Error).message})`,
    );
    return { holder, answer: null };
  }
}

/** Answers this instance's `<subject>.<instanceId>` requests; returns the unsubscribe. */
export function answerAsHolder<Q, A>(
  link: ClusterLink,
  subject: string,
  instanceId: string,
  answer: (request: Q) => A | Promise<A>,
): () => void {
  return link.reply(`${subject}.${instanceId}`, async (data) => {
    const request = JSON.parse(decoder.decode(data)) as Q;
    return encoder.encode(JSON.stringify(await answer(request)));
  });
}
