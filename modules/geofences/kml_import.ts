import type { TFunction } from "i18next";
import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { refusalText } from "../../lib/http/respond.ts";
import { kmlText, parseKml } from "./kml.ts";
import type { ZoneKind } from "./model.ts";
import * as S from "./schemas.ts";
import type { GeofenceService } from "./service.ts";

/** One placemark's outcome: its new zone, or why it was not imported (translated). */
export type KmlImportResult =
  | { index: number; name: string; ok: true; id: string }
  | { index: number; name: string; ok: false; msg: string };

/**
 * Imports the placemarks of a KML or KMZ file as zones of one kind: each is saved on its own
 * through the geofence service (same checks as the editor), so one bad placemark does not
 * stop the others.
 */
export class KmlImport {
  constructor(private readonly geofences: GeofenceService) {}

  async run(
    session: Session,
    file: { name: string; bytes: Uint8Array },
    kind: ZoneKind,
    groupId: string | undefined,
    t: TFunction,
  ): Promise<{ succeeded: number; results: KmlImportResult[] }> {
    const text = kmlText(file.name, file.bytes);
    if (text === null) throw new BizError("kmlInvalid");
    const items = parseKml(text);
    if (!items.length) throw new BizError("kmlInvalid");
    const results: KmlImportResult[] = [];
    for (const [index, item] of items.entries()) {
      const name = item.name || `${kind} ${index + 1}`;
      if (!item.shape) {
        results.push({ index, name, ok: false, msg: t(`geofences.import.${item.problem}`) });
        continue;
      }
      try {
        const body = S.zoneBody.parse({
          kind,
          name,
          description: item.description,
          groupId,
          shape: item.shape,
        });
        const z = await this.geofences.save(session, body);
        results.push({ index, name, ok: true, id: z.id });
      } catch (e) {
        results.push({ index, name, ok: false, msg: describe(e, t) });
      }
    }
    return { succeeded: results.filter((r) => r.ok).length, results };
  }
}

/** A per-item reason: catalogue text for refusals, the first validation issue otherwise. */
function describe(e: unknown, t: TFunction): string {
  if (e instanceof BizError) return refusalText(t, e);
  if (e instanceof z.ZodError) {
    const issue = e.issues[0];
    const key = issue.message.startsWith("validation.") ? issue.message : "validation.invalid";
    return `${issue.path.join(".")}: ${t(key)}`;
  }
  throw e;
}
