/** OsmAnd / Traccar Client HTTP protocol (not a TcpProtocol: one request, one answer). */

export {
  decodeOsmAndRequest,
  MAX_BODY_LENGTH,
  MAX_URL_LENGTH,
  type OsmAndRequest,
} from "./decoder.ts";
export { encodeCommandReply } from "./encoder.ts";
export type { OsmAndResult } from "./result.ts";
