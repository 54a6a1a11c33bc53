/**
 * Commands attached to rules (a fence's `command`, an auto broadcast rule's `content`) are
 * sent to devices later, on an event, with nobody at the keyboard. So they pass the policy of
 * a direct send when the rule is saved (send permission, the catalogue's rules for free text,
 * the login password for an instruction the catalogue protects) and are checked again against
 * the rule owner's current rights when they fire. Every firing lands in the owner's command
 * list and command operation log, refused ones included.
 */
import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import { zodRefusal } from "../../lib/http/validation.ts";
import type { Account } from "../accounts/model.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { PasswordChecks } from "../auth/confirm.ts";
import type { Device } from "../devices/model.ts";
import { buildInstruction, type InstructionCode, INSTRUCTIONS } from "./catalogue/index.ts";
import { MODEL_INSTRUCTIONS } from "./catalogue/models.ts";
import { paramsSchema } from "./catalogue/params.ts";
import { assertCommandPassword, assertMaySend } from "./policy.ts";
import type { CommandService } from "./service.ts";
import type { CommandRecord, CommandStore } from "./store.ts";
import { log } from "../../lib/log.ts";

const commandLog = log.area("commands");

/** The first word of a device text command: `DYD,000000#` → DYD; `*HQ,id,S20,…#` → S20. */
export function commandWord(text: string): string {
  const t = text.trim().toUpperCase().replace(/#$/, "");
  const fields = t.split(",");
  // H02 operators may type a whole frame: *HQ,<id>,<CMD>,…
  if (fields[0] === "*HQ" && fields.length > 2) return fields[2].trim();
  return fields[0].trim();
}

/**
 * Per model, the words of the text instructions it protects with the login password (engine
 * cut and restore, factory reset, …), taken from the catalogue itself so a new protected
 * instruction is covered without a list here. A free text starting with one of them is that
 * instruction in disguise (`DYD,123456#` cuts the engine whatever the device password).
 */
const PROTECTED_BY_MODEL: ReadonlyMap<string, ReadonlyMap<string, InstructionCode>> = (() => {
  const byModel = new Map<string, Map<string, InstructionCode>>();
  for (const [mcType, m] of Object.entries(MODEL_INSTRUCTIONS)) {
    const words = new Map<string, InstructionCode>();
    byModel.set(mcType, words);
    for (const code of m.passwordProtected) {
      // Protected instructions take no parameters today; one that needs some is skipped.
      const built = (() => {
        try {
          return buildInstruction(mcType, code, {});
        } catch {
          return null;
        }
      })();
      if (built?.encoding.kind === "text") words.set(commandWord(built.content), code);
    }
  }
  return byModel;
})();

/**
 * The protected instruction a free text amounts to on a model, or null. Without a model
 * (a rule whose devices are not known in advance), protected on any model counts.
 */
export function protectedInstruction(text: string, mcType?: string): InstructionCode | null {
  const word = commandWord(text);
  const models = mcType ? [PROTECTED_BY_MODEL.get(mcType)] : [...PROTECTED_BY_MODEL.values()];
  for (const words of models) {
    const code = words?.get(word);
    if (code) return code;
  }
  return null;
}

/** The catalogue's free-text rules (the `custom` instruction): printable ASCII, '#' only last. */
const customText = z.object({ params: paramsSchema(INSTRUCTIONS.custom.params) });

/** Where the refusal of a rule's command points (e.g. "command" or "rule.content"). */
export interface RuleCommandInput {
  text: string;
  field: string;
  password?: string;
}

export class RuleCommands {
  constructor(
    private readonly d: {
      accounts: AccountLookup;
      commands: CommandService;
      store: CommandStore;
      passwordChecks: PasswordChecks;
    },
  ) {}

  /**
   * Checks a rule's command as a direct single send by the caller: permission
   * (sendCommandFlag; instructionsFlag for a virtual user), free-text rules, and the login
   * password when the text is a protected instruction. Refusals name the command's field.
   */
  async assertMaySave(who: { self: Account; owner: Account }, input: RuleCommandInput) {
    assertMaySend(who.self, who.owner, false);
    const parsed = customText.safeParse({ params: { text: input.text } });
    if (!parsed.success) {
      throw zodRefusal(
        new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: input.field.split(".") }))),
      );
    }
    if (protectedInstruction(input.text)) {
      await assertCommandPassword(this.d.passwordChecks, who.self, input.password).catch((e) => {
        // Both refusals of the password (wrong, too many tries) point at its field.
        if (!(e instanceof BizError)) throw e;
        throw new BizError(e.key, e.params, { field: "password" });
      });
    }
  }

  /**
   * Checks an edit of a rule that keeps its (already confirmed) command but may change where
   * it goes (its devices): the caller needs the right to send, not the password again.
   */
  assertMayRetarget(who: { self: Account; owner: Account }, text: string): void {
    if (text) assertMaySend(who.self, who.owner, false);
  }

  /**
   * Sends a rule's command on its event as an offline command (a sleeping device gets it on
   * wake-up). The owner's rights are read now: without sendCommandFlag (or with the account
   * gone) nothing is sent, and the refusal is recorded as a failed command and logged.
   */
  async fire(
    rule: { ownerId: string; label: string },
    device: Device,
    text: string,
  ): Promise<CommandRecord | null> {
    const owner = await this.d.accounts.get(rule.ownerId);
    const sender = { id: rule.ownerId, account: rule.label, ownerId: rule.ownerId };
    const input = {
      device,
      content: text,
      sendType: "offline" as const,
      replace: true,
      platform: "web" as const,
    };
    if (!owner) {
      commandLog.warn(`rule command not sent (${rule.label}): its account is gone`);
      return null;
    }
    let record: CommandRecord;
    try {
      if (owner.permissions.sendCommandFlag !== 1) throw new BizError("permissionDenied");
      record = await this.d.commands.send(input, sender);
    } catch (e) {
      if (!(e instanceof BizError)) throw e;
      commandLog.warn(`rule command not sent (${rule.label}) to ${device.imei}: ${e.key}`);
      record = await this.d.commands.recordRefusal(input, sender, e);
    }
    await this.d.store.log(owner.id, {
      at: Date.now(),
      actorId: owner.id,
      actorAccount: rule.label,
      action: "send",
      target: device.imei,
      detail: text,
      result: record.status === "failed" ? "failed" : "ok",
    });
    return record;
  }
}
