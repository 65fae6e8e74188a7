import { describe, expect, it } from "vitest";
import { webhookUrlRefusal } from "../../src/domain/webhooks/address";

/** Every spelling the URL parser accepts for an address, and what the rule says of it (null: allowed). */
const cases: [url: string, refusal: string | null][] = [
  ["https://example.com/hook", null],
  ["https://hooks.example.com:8443/a?b=c", null],
  ["https://93.184.215.14/", null],
  ["https://[2606:4700:4700::1111]/", null],
  ["https://100.128.0.1/", null],
  ["https://172.32.0.1/", null],
  ["http://example.com/", "must use https"],
  ["ftp://example.com/", "must use https"],
  ["https://user:pw@example.com/", "must not contain a user name or password"],
  ["https://localhost/", "localhost"],
  ["https://LOCALHOST./", "localhost"],
  ["https://api.localhost/", "localhost"],
  ["https://127.0.0.1/", "a loopback address"],
  ["https://127.255.255.254/", "a loopback address"],
  ["https://2130706433/", "a loopback address"],
  ["https://0x7f000001/", "a loopback address"],
  ["https://0x7f.1/", "a loopback address"],
  ["https://0177.0.0.1/", "a loopback address"],
  ["https://127.1/", "a loopback address"],
  ["https://[::1]/", "a loopback address"],
  ["https://[0:0:0:0:0:0:0:1]/", "a loopback address"],
  ["https://[::ffff:127.0.0.1]/", "a loopback address"],
  ["https://[::127.0.0.1]/", "a loopback address"],
  ["https://10.1.2.3/", "a private address"],
  ["https://167772161/", "a private address"],
  ["https://172.16.0.1/", "a private address"],
  ["https://172.31.255.255/", "a private address"],
  ["https://192.168.1.1/", "a private address"],
  ["https://[fc00::1]/", "a private address"],
  ["https://[fd12:3456::1]/", "a private address"],
  ["https://[64:ff9b::10.0.0.1]/", "a private address"],
  ["https://[2002:c0a8:101::]/", "a private address"],
  ["https://169.254.169.254/", "a link-local address"],
  ["https://[fe80::1]/", "a link-local address"],
  ["https://[::ffff:a9fe:a9fe]/", "a link-local address"],
  ["https://100.64.0.1/", "a carrier-grade NAT address"],
  ["https://100.127.255.255/", "a carrier-grade NAT address"],
  ["https://0.0.0.0/", "an unspecified address"],
  ["https://0/", "an unspecified address"],
  ["https://[::]/", "an unspecified address"],
  ["https://224.0.0.1/", "a multicast address"],
  ["https://[ff02::1]/", "a multicast address"],
  ["https://255.255.255.255/", "a reserved address"],
  // The probe's five (issue 35): special-purpose blocks a webhook once could name.
  ["https://[::ffff:0:7f00:1]/", "a loopback address"],
  ["https://[::ffff:0:a9fe:a9fe]/", "a link-local address"],
  ["https://[64:ff9b:1::808:808]/", "a reserved address"],
  ["https://[2001::1]/", "a reserved address"],
  ["https://192.88.99.1/", "a reserved address"],
  ["https://[2002:808:808::1]/", "a reserved address"],
  ["https://[3fff::1]/", "a reserved address"],
  ["https://[5f00::1]/", "a reserved address"],
  ["https://[::ffff:8.8.8.8]/", null],
];

// The rule itself, with its wording, is held by public-address.test.ts; here, that a webhook's address follows it.
describe("a webhook's address (the public-address rule)", () => {
  it.each(cases)("%s → %s", (url, refusal) => {
    const found = webhookUrlRefusal(url, false);
    if (refusal === null) expect(found).toBeNull();
    else expect(found).toEqual(expect.any(String));
  });
});

describe("webhook addresses", () => {
  it.each([
    ["http://127.0.0.1:8787/hook", true, null],
    ["http://localhost:8787/hook", true, null],
    ["http://127.0.0.1/hook", true, "must use https"],
    ["http://127.0.0.1:8787/hook", false, "must use https"],
    ["https://localhost:8443/", false, "localhost"],
    ["http://10.0.0.1:8080/", true, "must use https"],
    ["https://[::1]:8443/", true, "a loopback address"],
    // Issue 35: the loopback test mode let a user name and password through.
    ["http://user:pw@127.0.0.1:8787/hook", true, "must not contain a user name or password"],
    ["http://user@localhost:8787/hook", true, "must not contain a user name or password"],
    ["http://:pw@127.0.0.1:8787/hook", true, "must not contain a user name or password"],
  ])("%s with loopback %s → %s", (url, allowLoopback, refusal) => {
    const found = webhookUrlRefusal(url, allowLoopback);
    if (refusal === null) expect(found).toBeNull();
    else expect(found).toContain(refusal);
  });

  // Issue 35: each refusal is one whole sentence, shown as it is (never "The webhook URL The URL …").
  it.each([
    ["not a url", "This is not a valid URL: it must be an absolute URL, e.g. https://example.com/hooks/todo."],
    ["http://example.com/", "The URL must use https."],
    ["https://u:p@example.com/", "The URL must not contain a user name or password."],
  ])("words the refusal of %s as one sentence", (url, sentence) => {
    const found = webhookUrlRefusal(url, false)!;
    expect(found).toBe(sentence);
    expect(found.match(/\bURL\b/g)).toHaveLength(found.startsWith("This") ? 2 : 1);
  });
});
