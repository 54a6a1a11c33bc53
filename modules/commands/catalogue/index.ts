/** The per-model instruction catalogue: what a model accepts, validation and encoding. */
import { z } from "zod";
import { BizError } from "../../../lib/errors.ts";
import { zodRefusal } from "../../../lib/http/validation.ts";
import { describe, type Encoding } from "./encoding.ts";
import {
  INSTRUCTION_CODES,
  type InstructionCode,
  type InstructionDef,
  INSTRUCTIONS,
} from "./instructions.ts";
import { MODEL_INSTRUCTIONS } from "./models.ts";
import { paramsSchema } from "./params.ts";
import { ENCODERS } from "./protocols.ts";

export type { Encoding, InstructionCode, InstructionDef };
export { describe, INSTRUCTION_CODES, INSTRUCTIONS };

export interface OfferedInstruction extends InstructionDef {
  passwordRequired: boolean;
}

/** The instructions a model offers, in catalogue order; empty when it has none. */
export function instructionsFor(mcType: string): OfferedInstruction[] {
  const m = MODEL_INSTRUCTIONS[mcType];
  if (!m) return [];
  return INSTRUCTION_CODES.filter((c) => m.codes.includes(c)).map((c) => ({
    ...INSTRUCTIONS[c],
    passwordRequired: m.passwordProtected.includes(c),
  }));
}

export function requiresPassword(mcType: string, code: InstructionCode): boolean {
  return MODEL_INSTRUCTIONS[mcType]?.passwordProtected.includes(code) ?? false;
}

export interface BuiltCommand {
  code: InstructionCode;
  encoding: Encoding;
  /** Readable content for records. */
  content: string;
}

/**
 * Validates parameters and encodes an instruction for a model. Refuses with
 * modelHasNoInstructions / commandUnsupported / illegalParameter (naming `params.<key>`).
 */
export function buildInstruction(
  mcType: string,
  code: InstructionCode,
  params: Record<string, unknown>,
): BuiltCommand {
  const m = MODEL_INSTRUCTIONS[mcType];
  if (!m) throw new BizError("modelHasNoInstructions");
  const encode = ENCODERS[m.family][code as keyof typeof ENCODERS[typeof m.family]] as
    | ((p: Record<string, unknown>) => Encoding)
    | undefined;
  if (!m.codes.includes(code) || !encode) throw new BizError("commandUnsupported");
  // Wrapped so a refusal names the field as `params.<key>`.
  const parsed = z.object({ params: paramsSchema(INSTRUCTIONS[code].params) }).safeParse({
    params,
  });
  if (!parsed.success) throw zodRefusal(parsed.error);
  const encoding = encode(parsed.data.params);
  return { code, encoding, content: describe(encoding) };
}
