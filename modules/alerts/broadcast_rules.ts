import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { RuleCommands } from "../commands/rule_commands.ts";
import type { DeviceService } from "../devices/service.ts";
import {
  type AutoBroadcast,
  type broadcastBody,
  type BroadcastRule,
  MAX_RULES,
} from "./broadcast.ts";
import type { AlertService } from "./service.ts";

/** What saving a rule sends: the rule, the account and the password for a protected text. */
export interface BroadcastRuleInput {
  userId?: string;
  rule: z.infer<typeof broadcastBody>;
  /** The login password, when the text is an instruction that needs it (never stored). */
  password?: string;
}

/**
 * The auto broadcast rules of an account as the console manages them: the account is one the
 * caller may configure (as for the alert settings), a rule's text is a command under the
 * caller's send policy, and its devices belong to the rule's account.
 */
export class BroadcastRules {
  constructor(
    private readonly d: {
      access: AccessGuard;
      alertCenter: AlertService;
      autoBroadcast: AutoBroadcast;
      devices: DeviceService;
      ruleCommands: RuleCommands;
    },
  ) {}

  /** The account the rules belong to: a configurable one asked for, else the caller's. */
  private async ownerOf(session: Session, userId?: string): Promise<string> {
    return (await this.d.alertCenter.accountSettings(session, userId)).userId;
  }

  async list(session: Session, userId?: string): Promise<BroadcastRule[]> {
    return this.d.autoBroadcast.list(await this.ownerOf(session, userId));
  }

  async save(session: Session, input: BroadcastRuleInput): Promise<BroadcastRule> {
    const userId = await this.ownerOf(session, input.userId);
    const before = input.rule.id ? this.d.autoBroadcast.get(userId, input.rule.id) : undefined;
    // A new or changed text passes the send policy of the caller (modules/commands); a
    // kept one still needs the right to send when the rule's devices change.
    const who = await this.d.access.caller(session);
    if (input.rule.content !== before?.content) {
      await this.d.ruleCommands.assertMaySave(who, {
        text: input.rule.content,
        field: "rule.content",
        password: input.password,
      });
    } else if (input.rule.imeis.join() !== before.imeis.join()) {
      this.d.ruleCommands.assertMayRetarget(who, input.rule.content);
    }
    for (const imei of input.rule.imeis) {
      if ((await this.d.devices.visibleDevice(session, imei)).userId !== userId) {
        throw new BizError("ruleDeviceOtherUser", { imei }, { field: "imeis", imei });
      }
    }
    const id = input.rule.id ?? crypto.randomUUID();
    if (input.rule.id && !this.d.autoBroadcast.get(userId, id)) {
      throw new BizError("dataNotExists");
    }
    const rule = { ...input.rule, id, userId };
    if (!await this.d.autoBroadcast.save(rule)) {
      throw new BizError("quantityLimitExceeded", { limit: MAX_RULES });
    }
    return rule;
  }

  async remove(session: Session, id: string, userId?: string): Promise<void> {
    const rule = this.d.autoBroadcast.get(await this.ownerOf(session, userId), id);
    if (!rule) throw new BizError("dataNotExists");
    await this.d.autoBroadcast.remove(rule);
  }
}
