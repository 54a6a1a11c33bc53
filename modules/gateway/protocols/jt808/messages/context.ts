/** What a message handler gets, and what it returns. */
import type { DeviceMessage, ProtocolSession } from "../../types.ts";
import type { ByteReader } from "../bytes.ts";
import { Result } from "../constants.ts";
import { generalReply, type TerminalAddress } from "../encoder.ts";
import type { Header } from "../header.ts";
import type { LocationContext } from "../location.ts";
import { profileFor } from "../models.ts";
import { deviceModel, nextSerial, timezoneMinutes } from "../session_state.ts";

export interface Handled {
  messages: DeviceMessage[];
  replies: Uint8Array[];
  /** Device model learned from this message (registration), passed on with "identify". */
  model?: string;
}

export type MessageHandler = (ctx: MessageContext) => Handled;

export class MessageContext {
  constructor(
    readonly header: Header,
    /** The body: everything between the header and the check code. */
    readonly body: ByteReader,
    readonly session: ProtocolSession,
    readonly now: () => Date,
  ) {}

  get address(): TerminalAddress {
    return { version: this.header.version, terminal: this.header.terminal };
  }

  get tzMinutes(): number {
    return timezoneMinutes(this.session);
  }

  get location(): LocationContext {
    return {
      profile: profileFor(deviceModel(this.session)),
      tzMinutes: this.tzMinutes,
      now: this.now,
    };
  }

  /** 0x8001 for this message. */
  ack(result: number = Result.SUCCESS): Uint8Array {
    return generalReply(
      this.address,
      nextSerial(this.session),
      this.header.serial,
      this.header.msgId,
      result,
    );
  }
}

export function handled(messages: DeviceMessage[], replies: Uint8Array[] = []): Handled {
  return { messages, replies };
}
