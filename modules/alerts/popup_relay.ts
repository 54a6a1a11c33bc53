import { type Cluster, SUBJECTS } from "../../lib/cluster/types.ts";
import { log } from "../../lib/log.ts";
import type { AlertDelivery, PushedAlert } from "./delivery.ts";

const relayLog = log.area("alerts");

interface PopupMessage {
  /** The pushing instance (it has the pop-up already). */
  o: string;
  p: PushedAlert & { seq: number };
}

/**
 * Cluster mode: the console's pop-up feed (GET /v3/new/alarm/popups, polled through the
 * balancer, so any instance may answer) holds every instance's pop-ups. The instance that
 * pushes an alert sends the pop-up to the others on `tp.popups`; its mail, webhook and SMS go
 * out there only. Single mode: nothing is installed.
 */
export function relayPopups(
  delivery: AlertDelivery,
  cluster: Pick<Cluster, "mode" | "instanceId" | "link">,
): () => void {
  if (cluster.mode !== "cluster") return () => {};
  const encoder = new TextEncoder(), decoder = new TextDecoder();
  delivery.sharePopups((p) => {
    const message: PopupMessage = { o: cluster.instanceId, p };
    cluster.link.publish(SUBJECTS.popups, encoder.encode(JSON.stringify(message)));
  });
  return cluster.link.subscribe(SUBJECTS.popups, (data) => {
    try {
      const message = JSON.parse(decoder.decode(data)) as PopupMessage;
      if (message.o !== cluster.instanceId) delivery.addPopup(message.p);
    } catch (e) {
      relayLog.warn("unreadable pop-up message", e);
    }
  });
}
