/**
 * What an instruction becomes for one protocol: a text command (every protocol's
 * `encodeCommand` frames it), or a JT/T 808 message other than 0x8300.
 */
export type Encoding =
  | { kind: "text"; content: string }
  /** 0x8105 terminal control: command word and its ";"-separated parameters. */
  | { kind: "jt808Control"; word: number; params?: string }
  /** 0x8103 set terminal parameters: DWORD values by parameter id. */
  | { kind: "jt808Params"; params: { id: number; value: number }[] }
  /** 0x8201 position query ("locate now"); the terminal answers 0x0201 with its location. */
  | { kind: "jt808Locate" };

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
  }
}
