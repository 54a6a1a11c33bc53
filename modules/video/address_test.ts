/** The address terminals are told to send media to (0x9101/0x9201/0x9208). */
import assert from "node:assert/strict";
import type { LiveConnection } from "../gateway/types.ts";
import { mediaHost } from "./address.ts";

const conn = (remote: string) => ({ remote }) as LiveConnection;

Deno.test("media host: MEDIA_PUBLIC_HOST, else one HOSTNAME, else the device's side", () => {
  assert.equal(
    mediaHost({ MEDIA_PUBLIC_HOST: "video.example.com", HOSTNAME: "0.0.0.0" }, conn("1.2.3.4:5")),
    "video.example.com",
  );
  assert.equal(mediaHost({ HOSTNAME: "10.0.0.7" }, conn("1.2.3.4:5")), "10.0.0.7");
  assert.equal(mediaHost({ HOSTNAME: "0.0.0.0" }, conn("127.0.0.1:40000")), "127.0.0.1");
  assert.equal(mediaHost({ HOSTNAME: "::" }, conn("[::1]:40000")), "127.0.0.1");
  const own = mediaHost({ HOSTNAME: "0.0.0.0" }, conn("203.0.113.9:40000"));
  const v4 = Deno.networkInterfaces().filter((i) => i.family === "IPv4").map((i) => i.address);
  assert.ok(own === "127.0.0.1" || (v4.includes(own) && !own.startsWith("127.")), own);
});
