import type { BinaryCommand } from "../../gateway/protocols/types.ts";

/**
 * What an instruction becomes for one protocol: a text command, or one of the protocol's
 * binary commands (JT/T 808 messages other than 0x8300). The protocol frames either
 * (`TcpProtocol.encodeCommand`).
 */
export type Encoding = { kind: "text"; content: string } | BinaryCommand;

export const text = (content: string): Encoding => ({ kind: "text", content });

/** How the command reads in records and on the status page. */
export function describe(e: Encoding): string {
  switch (e.kind) {
    case "text":
      return e.content;
    case "jt808Control":
      return `0x8105 ${e.word}${e.params ? ` ${e.params}` : ""}`;
    case "jt808Params":
      return `0x8103 ${
        e.params.map((p) => `0x${p.id.toString(16).padStart(4, "0")}=${p.value}`).join(";")
      }`;
    case "jt808Locate":
      return "0x8201";
    case "jt808Video":
      return `video ${e.request.type}`;
  }
}
