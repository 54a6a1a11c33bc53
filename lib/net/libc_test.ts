import assert from "node:assert/strict";
import { readSocketAddress, socketAddress } from "./libc.ts";

Deno.test("socket addresses: IP literals round-trip; names are not literals", () => {
  const cases: [string, string][] = [
    ["127.0.0.1", "127.0.0.1"],
    ["0.0.0.0", "0.0.0.0"],
    ["localhost", "127.0.0.1"],
    ["::", "::"],
    ["::1", "::1"],
    ["[::1]", "::1"],
    ["2001:db8::8:800:200c:417a", "2001:db8::8:800:200c:417a"],
    ["2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["fe80::1:2", "fe80::1:2"],
    ["::ffff:10.1.2.3", "::ffff:10.1.2.3"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
  ];
  for (const [input, formatted] of cases) {
    const address = socketAddress(input, 5023);
    assert.ok(address, input);
    assert.deepEqual(readSocketAddress(address), { hostname: formatted, port: 5023 }, input);
  }
  for (
    const bad of ["example.com", "256.1.1.1", "1.2.3", "1::2::3", "1:2:3:4:5:6:7:8:9", "", ":::"]
  ) {
    assert.equal(socketAddress(bad, 1), null, bad);
  }
});
