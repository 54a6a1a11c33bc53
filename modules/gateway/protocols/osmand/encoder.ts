/**
 * OsmAnd has no downlink channel: the server can only answer the client's next request.
 * A pending command is delivered as the plain-text body of that HTTP 200 response
 * (Content-Type text/plain); clients that do not understand it ignore the body.
 */

import type { TextCommand } from "../types.ts";

/** Response body carrying `command`; trimmed and kept to one line for line-based clients. */
export function encodeCommandReply(command: TextCommand): string {
  return command.content.replace(/[\r\n]+/g, " ").trim();
}
