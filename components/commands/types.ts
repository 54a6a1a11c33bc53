/** Shapes the command pages receive from the API. */
export type ParamDef =
  | { key: string; type: "int"; min: number; max: number; unit?: string; default?: number }
  | { key: string; type: "number"; min: number; max: number; unit?: string }
  | { key: string; type: "enum"; options: string[]; default?: string }
  | { key: string; type: "phones"; max: number }
  | { key: string; type: "text"; max: number };

export interface InstructionDef {
  code: string;
  category: string;
  params: ParamDef[];
}

/** A saved instruction with its parameters (command templates). */
export interface CommandTemplate {
  id: string;
  name: string;
  code: string;
  params: Record<string, unknown>;
  createdAt: string;
}

export interface Catalogue {
  instructions: InstructionDef[];
  models: {
    mcType: string;
    name: string;
    instructions: { code: string; passwordRequired: boolean }[];
  }[];
}

export interface CommandRow {
  id: string;
  imei: string;
  name: string | null;
  content: string;
  sendType: "online" | "offline";
  status: string;
  platform: string;
  batchNo: string | null;
  senderAccount: string;
  createdAt: string;
  sentAt: string | null;
  repliedAt: string | null;
  reply: string | null;
  phases: { status: string; at: string }[];
}

export interface BatchRow {
  batchNo: string;
  category: "command" | "workMode";
  name: string;
  content: string;
  deviceCount: number;
  senderAccount: string;
  sendType: "online" | "offline";
  createdAt: string;
}

/** What the page knows about the user's sending rights (spec §6). */
export interface SendRights {
  single: boolean;
  batch: boolean;
}
