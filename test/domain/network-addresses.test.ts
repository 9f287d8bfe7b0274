// The refused address classes, IPv4 and IPv6, the own-network classes of development, and opened networks.
import { describe, expect, it } from "vitest";
import {
  AllowedNetworks,
  isForbiddenAddress,
  isLoopbackOrPrivateAddress,
  isReachableAddress,
} from "../../src/domain/network-addresses.js";

/** Each refused range: its name, addresses at its edges and inside, and neighbours just outside it. */
const forbiddenRanges: [string, string[], string[]][] = [
  ["0.0.0.0/8 (this network, unspecified)", ["0.0.0.0", "0.1.2.3", "0.255.255.255"], ["1.0.0.0"]],
  ["10.0.0.0/8 (private)", ["10.0.0.0", "10.0.0.1", "10.255.255.255"], ["9.255.255.255", "11.0.0.0"]],
  [
    "100.64.0.0/10 (shared)",
    ["100.64.0.0", "100.100.100.200", "100.127.255.255"],
    ["100.63.255.255", "100.128.0.0"],
  ],
  [
    "127.0.0.0/8 (loopback)",
    ["127.0.0.1", "127.0.0.0", "127.255.255.255", "127.1.2.3"],
    ["128.0.0.0", "126.255.255.255"],
  ],
  [
    "169.254.0.0/16 (link-local, metadata)",
    ["169.254.169.254", "169.254.0.0", "169.254.255.255"],
    ["169.253.255.255", "169.255.0.0"],
  ],
  [
    "172.16.0.0/12 (private)",
    ["172.16.0.0", "172.20.1.1", "172.31.255.255"],
    ["172.15.255.255", "172.32.0.0"],
  ],
  ["192.0.0.0/24 (protocol assignments)", ["192.0.0.1", "192.0.0.255"], ["192.0.1.0"]],
  [
    "192.168.0.0/16 (private)",
    ["192.168.0.0", "192.168.1.1", "192.168.255.255"],
    ["192.167.255.255", "192.169.0.0"],
  ],
  ["198.18.0.0/15 (benchmarking)", ["198.18.0.0", "198.19.255.255"], ["198.17.255.255", "198.20.0.0"]],
  ["224.0.0.0/4 (multicast)", ["224.0.0.1", "239.255.255.250"], ["223.255.255.255"]],
  ["240.0.0.0/4 (reserved, broadcast)", ["240.0.0.1", "255.255.255.255"], []],
  ["::/128 (unspecified)", ["::", "0:0:0:0:0:0:0:0"], []],
  ["::1/128 (loopback)", ["::1", "0:0:0:0:0:0:0:1"], []],
  ["::/96 (IPv4-compatible)", ["::127.0.0.1", "::7f00:1", "::a00:1"], []],
  [
    "::ffff:0:0/96 (IPv4-mapped)",
    ["::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:8.8.8.8"],
    [],
  ],
  ["64:ff9b::/96 (NAT64)", ["64:ff9b::7f00:1", "64:ff9b::127.0.0.1"], ["64:ff9b:1::1"]],
  [
    "fc00::/7 (unique local)",
    ["fc00::", "fd12:3456::1", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["fbff::1", "fe00::1"],
  ],
  ["fe80::/10 (link-local)", ["fe80::", "fe80::1", "febf:ffff::1"], []],
  ["fec0::/10 (site-local)", ["fec0::1", "feff::1"], []],
  ["ff00::/8 (multicast)", ["ff02::1", "ff05::1:3", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"], []],
];

const publicAddresses = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "203.0.113.7",
  "100.63.0.1",
  "172.32.0.1",
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "2a00:1450:4001:80b::200e",
];

describe("isForbiddenAddress", () => {
  for (const [range, inside, outside] of forbiddenRanges) {
    it(`refuses ${range}`, () => {
      for (const address of inside) expect(isForbiddenAddress(address), address).toBe(true);
      // The neighbours are public unless another range claims them.
      for (const address of outside) {
        const claimedElsewhere = forbiddenRanges.some(
          ([other, addresses]) => other !== range && addresses.includes(address),
        );
        if (!claimedElsewhere) expect(isForbiddenAddress(address), address).toBe(false);
      }
    });
  }

  it("allows public IPv4 and IPv6 addresses", () => {
    for (const address of publicAddresses) expect(isForbiddenAddress(address), address).toBe(false);
  });

  it("refuses anything that is not an IP address at all", () => {
    for (const value of ["", "localhost", "example.com", "127.0.0.1.nip.io", "[::1]", "1.2.3", "::g"]) {
      expect(isForbiddenAddress(value), value).toBe(true);
    }
  });
});

describe("isLoopbackOrPrivateAddress (http:// in development)", () => {
  it("is true for loopback, private, shared and link-local addresses, edges included", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.255.255",
      "10.0.0.0",
      "10.255.255.255",
      "172.16.0.0",
      "172.31.255.255",
      "192.168.0.0",
      "192.168.255.255",
      "100.64.0.0",
      "100.127.255.255",
      "169.254.0.1",
      "::1",
      "fc00::",
      "fdff:ffff::1",
      "fe80::1",
    ])
      expect(isLoopbackOrPrivateAddress(address), address).toBe(true);
  });

  it("is false for public, unspecified, multicast, reserved and mapped addresses, and for names", () => {
    for (const address of [
      "8.8.8.8",
      "172.32.0.0",
      "192.169.0.1",
      "100.128.0.0",
      "11.0.0.0",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::ffff:127.0.0.1",
      "2001:db8::1",
      "ff02::1",
      "localhost",
      "receiver.internal",
      "",
    ])
      expect(isLoopbackOrPrivateAddress(address), address).toBe(false);
  });
});

describe("AllowedNetworks (VIDROWS_EGRESS_ALLOW)", () => {
  it("opens the addresses and networks listed, and nothing else", () => {
    const allowed = AllowedNetworks.parse(" 127.0.0.1, 10.1.0.0/16 ,fd00::/8,::1");
    for (const address of ["127.0.0.1", "10.1.0.0", "10.1.255.255", "fd12::1", "::1"]) {
      expect(isReachableAddress(address, allowed), address).toBe(true);
    }
    for (const address of ["127.0.0.2", "10.2.0.1", "192.168.1.1", "fe80::1", "::ffff:127.0.0.1"]) {
      expect(isReachableAddress(address, allowed), address).toBe(false);
    }
    expect(isReachableAddress("8.8.8.8", allowed)).toBe(true);
  });

  it("opens nothing when empty or absent", () => {
    for (const setting of [undefined, "", " , "]) {
      const allowed = AllowedNetworks.parse(setting);
      expect(allowed.empty).toBe(true);
      expect(isReachableAddress("127.0.0.1", allowed)).toBe(false);
    }
  });

  it("refuses an entry that is neither an address nor a network, naming it", () => {
    for (const entry of ["localhost", "10.0.0.0/33", "::1/129", "10.0.0.0/8/8", "10.0.0.0/x", "1.2.3"]) {
      expect(() => AllowedNetworks.parse(`127.0.0.1,${entry}`), entry).toThrow(`"${entry}"`);
    }
  });
});
