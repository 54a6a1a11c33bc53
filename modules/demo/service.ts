import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { RateLimiter } from "../../lib/http/rate_limiter.ts";
import { normalizeLang, translator } from "../../lib/i18n/i18n.ts";
import type { Config } from "../../lib/config.ts";
import type { AccessGuard } from "../accounts/access.ts";
import { ACCOUNT_TYPES, type AccountLookup } from "../accounts/model.ts";
import type { AccountService } from "../accounts/service.ts";
import type { CaptchaService } from "../auth/captcha.ts";
import type { Mailer } from "../notifications/mailer.ts";
import {
  DEMO_APPLIES_PER_MINUTE,
  DEMO_LINK_HOURS,
  type DemoApplication,
  type DemoStatus,
} from "./model.ts";
import type { DemoStore } from "./store.ts";

export interface ApplyInput {
  name: string;
  company: string;
  department: string;
  phone: string;
  email: string;
  region?: string;
  captchaId: string;
  captchaCode: string;
}

export interface DemoDeps {
  store: DemoStore;
  captcha: CaptchaService;
  access: AccessGuard;
  accountStore: AccountLookup;
  /** Creates the trial account (the account rules) and sets its password from the link. */
  accounts: Pick<AccountService, "add" | "recoverPassword">;
  mailer: Mailer;
  config: Pick<Config, "CAPTCHA" | "DEMO_TRIAL_DAYS" | "DEMO_PARENT_ACCOUNT">;
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function randomToken(bytes = 24): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}

/** A password nobody knows: the trial account can be used only after the link set one. */
function unusablePassword(): string {
  return `${randomToken(18)}a1`;
}

/** YYYY-MM-DD of `days` days after today (UTC). */
function dayAfter(days: number, now = new Date()): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Demo accounts: the public application (captcha, consent, per-address limit), the
 * administrators' review, the trial account created on approval (under DEMO_PARENT_ACCOUNT
 * or the approving administrator, ending after DEMO_TRIAL_DAYS) and the one-time link that
 * sets its password. No password ever goes into a mail.
 */
export class DemoService {
  private readonly applyLimiter = new RateLimiter(DEMO_APPLIES_PER_MINUTE, 60_000);

  constructor(private readonly d: DemoDeps) {}

  async apply(input: ApplyInput, ip: string): Promise<{ id: string }> {
    if (!this.applyLimiter.hit(ip)) throw new BizError("requestTooOften");
    // Used up either way; refused only where the login captcha is on (CAPTCHA=off: automation).
    const solved = await this.d.captcha.consume(input.captchaId, input.captchaCode);
    if (this.d.config.CAPTCHA === "on" && !solved) {
      throw new BizError("captchaIncorrect", {}, { field: "captchaCode" });
    }
    const app: DemoApplication = {
      id: `${Date.now().toString().padStart(14, "0")}${randomToken(3).replace(/[-_]/g, "x")}`,
      name: input.name,
      company: input.company,
      department: input.department,
      phone: input.phone,
      email: input.email.toLowerCase(),
      region: input.region ?? "",
      status: "pending",
      createdAt: new Date().toISOString(),
      ip,
      decidedAt: null,
      decidedBy: null,
      accountId: null,
      account: null,
      trialUntil: null,
      reason: "",
    };
    if (!await this.d.store.insert(app)) {
      throw new BizError("demoAlreadyPending", {}, { field: "email" });
    }
    return { id: app.id };
  }

  async list(
    session: Session,
    q: { status?: DemoStatus; pageNum: number; pageSize: number },
  ): Promise<{ total: number; list: DemoApplication[] }> {
    await this.reviewer(session);
    const all = (await this.d.store.list()).filter((a) => !q.status || a.status === q.status);
    const start = (q.pageNum - 1) * q.pageSize;
    return { total: all.length, list: all.slice(start, start + q.pageSize) };
  }

  /**
   * Creates the trial account and mails its set-password link. Approving an approved
   * application again mails a new link (the old one stops working): a lost mail is resent.
   */
  async approve(
    session: Session,
    id: string,
    origin: string,
  ): Promise<{ accountId: string; account: string; trialUntil: string }> {
    const reviewer = await this.reviewer(session);
    const app = await this.application(id);
    if (app.status === "rejected") throw new BizError("demoAlreadyDecided");
    if (!this.d.mailer.enabled) throw new BizError("mailServerUnavailable");
    let decided = app;
    if (app.status === "pending") {
      const parentId = await this.parentId(reviewer.id);
      const login = await this.freeLogin(app.email);
      // Day one is the approval day; trialUntil is the last day the account may log in.
      const trialUntil = dayAfter(this.d.config.DEMO_TRIAL_DAYS - 1);
      const { id: accountId } = await this.d.accounts.add(session, {
        account: login,
        nickName: app.name.length >= 3 ? app.name.slice(0, 25) : `${app.name} demo`,
        password: unusablePassword(),
        accountType: ACCOUNT_TYPES.endUser,
        parentId,
        contact: app.name,
        phone: app.phone,
        email: app.email,
        companyName: app.company.slice(0, 100),
        country: app.region.slice(0, 64),
        description: `Demo: ${app.department}`.slice(0, 2000),
        expiration: trialUntil,
      });
      decided = {
        ...app,
        status: "approved",
        decidedAt: new Date().toISOString(),
        decidedBy: reviewer.account,
        accountId,
        account: login,
        trialUntil,
      };
      if (!await this.d.store.decide(app, decided)) throw new BizError("demoAlreadyDecided");
    }
    await this.mailLink(decided, origin);
    return {
      accountId: decided.accountId!,
      account: decided.account!,
      trialUntil: decided.trialUntil!,
    };
  }

  async reject(session: Session, id: string, reason: string): Promise<void> {
    const reviewer = await this.reviewer(session);
    const app = await this.application(id);
    if (app.status !== "pending") throw new BizError("demoAlreadyDecided");
    const decided: DemoApplication = {
      ...app,
      status: "rejected",
      decidedAt: new Date().toISOString(),
      decidedBy: reviewer.account,
      reason,
    };
    if (!await this.d.store.decide(app, decided)) throw new BizError("demoAlreadyDecided");
  }

  /** Sets the trial account's password with the mailed link; the link works once. */
  async setPassword(token: string, password: string): Promise<{ account: string }> {
    const link = /^[\w-]{20,64}$/.test(token)
      ? await this.d.store.takeLink(await sha256(token))
      : null;
    if (!link || link.expiresAt <= Date.now()) throw new BizError("demoLinkInvalid");
    const account = await this.d.accountStore.get(link.accountId);
    if (!account) throw new BizError("demoLinkInvalid");
    await this.d.accounts.recoverPassword(account, password);
    return { account: account.account };
  }

  private async mailLink(app: DemoApplication, origin: string): Promise<void> {
    const token = randomToken();
    const ttlMs = DEMO_LINK_HOURS * 3600_000;
    await this.d.store.putLink(await sha256(token), {
      accountId: app.accountId!,
      applicationId: app.id,
      expiresAt: Date.now() + ttlMs,
    }, ttlMs);
    const account = await this.d.accountStore.get(app.accountId!);
    const t = translator(normalizeLang(account?.language));
    await this.d.mailer.send({
      to: app.email,
      subject: t("demo.mail.subject"),
      text: t("demo.mail.text", {
        name: app.name,
        account: app.account!,
        link: `${origin}/demoPassword?token=${token}`,
        hours: DEMO_LINK_HOURS,
        until: app.trialUntil!,
      }),
    });
  }

  /** Only a real administrator reviews applications. */
  private async reviewer(session: Session) {
    const { self } = await this.d.access.caller(session);
    if (self.virtual || self.accountType !== ACCOUNT_TYPES.administrator) {
      throw new BizError("permissionDenied");
    }
    return self;
  }

  private async application(id: string): Promise<DemoApplication> {
    const app = await this.d.store.get(id);
    if (!app) throw new BizError("dataNotExists");
    return app;
  }

  /** DEMO_PARENT_ACCOUNT (a login) when set and found, else the approving administrator. */
  private async parentId(reviewerId: string): Promise<string> {
    const login = this.d.config.DEMO_PARENT_ACCOUNT;
    if (!login) return reviewerId;
    const id = await this.d.accountStore.findIdByLogin(login);
    if (!id) throw new BizError("superiorInvalid");
    return id;
  }

  /** The e-mail address as the login, or a variant of it when that is taken. */
  private async freeLogin(email: string): Promise<string> {
    if (email.length <= 50 && !await this.d.accountStore.findIdByLogin(email)) return email;
    const base = email.split("@")[0].replace(/[^A-Za-z0-9_]/g, "_").slice(0, 30) || "demo";
    for (;;) {
      const candidate = `demo_${base}_${Math.floor(Math.random() * 10_000)}`;
      if (!await this.d.accountStore.findIdByLogin(candidate)) return candidate;
    }
  }
}
