import { resolveHost } from "../../lib/net/public_address.ts";
import { log } from "../../lib/log.ts";
import { post } from "./webhook.ts";

const smsLog = log.area("sms");

/**
 * The HTTP SMS gateway (SMS_URL): each SMS is POSTed as JSON `{to, text}`; a 2xx answer means
 * sent. Calls go through the webhooks' pinned HTTP client (the checked address is the one
 * connected to, no redirects, a 10 s deadline). The address is the operator's setting, not a
 * user's, so loopback and private addresses are allowed (a gateway on the site's network).
 */
export class SmsGateway {
  constructor(private readonly url: string) {}

  /** True when the gateway accepted the message. */
  async send(to: string, text: string): Promise<boolean> {
    try {
      const u = new URL(this.url);
      const [address] = await resolveHost(u.hostname);
      if (!address) throw new Error(`host not found: ${u.hostname}`);
      const status = await post(
        { url: u, address },
        { "content-type": "application/json", "user-agent": "TrackingPlatform-SMS/1" },
        JSON.stringify({ to, text }),
      );
      if (status >= 200 && status < 300) return true;
      smsLog.warn(`gateway answered ${status}`);
    } catch (e) {
      smsLog.warn(`gateway call failed: ${(e as Error).message}`);
    }
    return false;
  }
}
