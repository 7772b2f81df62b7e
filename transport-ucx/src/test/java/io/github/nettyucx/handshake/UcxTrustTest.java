/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UcxTrust}'s rules as one sets them in code or in {@code -Dio.github.nettyucx.trust}: every form, the
 * errors, the networks and their edges (IPv4-mapped IPv6 peers included), the secret's minimum length and the
 * permissions of its file, and how rules combine. No native library.
 */
class UcxTrustTest {
    /** A random key, hex, as a key file or {@code secret:} holds it. */
    private static final String SECRET = "fdfcb0548e95b183c71a1353d868fc733c42b2e27b7de4694616fcfa438773ed";
    private static final byte[] KEY = HexFormat.of().parseHex(SECRET);

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    /** An IPv6 socket's view of an IPv4 peer: Java itself would make an Inet4Address of this literal. */
    private static InetAddress mapped(String ipv4) throws UnknownHostException {
        byte[] v4 = InetAddress.getByName(ipv4).getAddress();
        byte[] v6 = new byte[16];
        v6[10] = (byte) 0xFF;
        v6[11] = (byte) 0xFF;
        System.arraycopy(v4, 0, v6, 12, 4);
        InetAddress address = Inet6Address.getByAddress(null, v6, -1);
        assertTrue(address instanceof Inet6Address);
        return address;
    }

    private static Path secretFile(Path dir, String content, String permissions) throws IOException {
        Path file = dir.resolve("secret");
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    // ---- the plain rules ----

    @Test
    void noneTrustsNoOne() throws IOException {
        UcxTrust none = UcxTrust.none();
        assertFalse(none.trustsAnyPeer());
        assertFalse(none.trustsSameUser());
        assertNull(none.secret());
        assertFalse(none.inTrustedNetwork(ip("127.0.0.1")));
        assertFalse(none.inTrustedNetwork(ip("::1")));
        assertEquals("none", none.toString());
        for (String spec : new String[] {"none", "NONE", " none ", ""}) {
            UcxTrust parsed = UcxTrust.parse(spec);
            assertFalse(parsed.trustsAnyPeer() || parsed.trustsSameUser() || parsed.secret() != null, spec);
            assertFalse(parsed.inTrustedNetwork(ip("10.0.0.1")), spec);
        }
    }

    @Test
    void sameUserTrustsOnlyBySameUser() throws IOException {
        UcxTrust sameUser = UcxTrust.sameUser();
        assertTrue(sameUser.trustsSameUser());
        assertFalse(sameUser.trustsAnyPeer());
        assertNull(sameUser.secret());
        assertFalse(sameUser.inTrustedNetwork(ip("127.0.0.1")), "same-user is not 'any local address'");
        for (String spec : new String[] {"same-user", "Same-User", "  same-user  "}) {
            UcxTrust parsed = UcxTrust.parse(spec);
            assertTrue(parsed.trustsSameUser(), spec);
            assertFalse(parsed.trustsAnyPeer(), spec);
        }
    }

    @Test
    void anyTrustsEveryone() throws IOException {
        assertTrue(UcxTrust.anyPeer().trustsAnyPeer());
        assertFalse(UcxTrust.anyPeer().trustsSameUser());
        assertTrue(UcxTrust.parse("any").trustsAnyPeer());
        assertTrue(UcxTrust.parse("ANY").trustsAnyPeer());
    }

    @Test
    void unknownRulesAreRefusedWithTheFormsThatExist() {
        for (String spec : new String[] {"all", "same_user", "secret", "networks", "trust:any", "any;same-user",
            "same-user,bogus"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UcxTrust.parse(spec),
                    spec);
            assertTrue(e.getMessage().contains("unknown netty-ucx trust rule"), e.getMessage());
            assertTrue(e.getMessage().contains("same-user"), "the message names the forms: " + e.getMessage());
        }
    }

    // ---- secrets ----

    @Test
    void aSecretNeedsAtLeast16Bytes() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UcxTrust.sharedSecret(java.util.Arrays.copyOf(KEY, UcxTrust.MIN_SECRET_BYTES - 1)));
        assertTrue(e.getMessage().contains("at least 16 bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("bin/ucx-keygen FILE"), "the message names the fix: " + e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.sharedSecret(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.parse("secret:" + SECRET.substring(0, 30)));
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.parse("secret:"));
        assertThrows(NullPointerException.class, () -> UcxTrust.sharedSecret(null));
        assertEquals(16, UcxTrust.sharedSecret(java.util.Arrays.copyOf(KEY, 16)).secret().length);
        assertEquals(16, UcxTrust.parse("secret:" + SECRET.substring(0, 32)).secret().length);
    }

    @Test
    void aSecretIsCopiedNotShared() {
        byte[] bytes = KEY.clone();
        UcxTrust trust = UcxTrust.sharedSecret(bytes);
        bytes[0] ^= 1;
        assertArrayEquals(KEY, trust.secret(), "a change to the caller's array changed the secret");
        assertFalse(trust.trustsSameUser());
        assertFalse(trust.trustsAnyPeer());
        assertEquals("shared secret", trust.toString(), "the secret itself is never shown");
    }

    /** {@code secret:} takes an encoded key, hex in either case or base64; a passphrase is refused. */
    @Test
    void aSecretFromTheCommandLineIsAnEncodedKey() throws IOException {
        String upper = SECRET.toUpperCase(Locale.ROOT);
        UcxTrust trust = UcxTrust.parse("secret:" + upper);
        assertArrayEquals(KEY, trust.secret());
        assertFalse(trust.toString().contains(upper));
        assertArrayEquals(KEY, UcxTrust.parse("secret:" + java.util.Base64.getEncoder().encodeToString(KEY))
                .secret());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UcxTrust.parse("secret:correct horse battery staple"));
        assertTrue(e.getMessage().contains("bin/ucx-keygen"), e.getMessage());
    }

    @Test
    void aSecretFileReadableByOthersIsRefused(@TempDir Path dir) throws IOException {
        for (String permissions : new String[] {"rw-r--r--", "rw-r-----", "rw----r--", "r--r--r--"}) {
            Path file = secretFile(dir, SECRET + "\n", permissions);
            IOException e = assertThrows(IOException.class, () -> UcxTrust.sharedSecretFile(file), permissions);
            assertTrue(e.getMessage().contains("chmod 600"), permissions + ": " + e.getMessage());
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            IOException parsed = assertThrows(IOException.class, () -> UcxTrust.parse("secret-file:" + file));
            assertTrue(parsed.getMessage().contains("chmod 600"), parsed.getMessage());
        }
    }

    @Test
    void aSecretFileOnlyItsOwnerReadsIsTakenWithoutSurroundingWhiteSpace(@TempDir Path dir) throws IOException {
        for (String permissions : new String[] {"rw-------", "r--------"}) {
            Path file = secretFile(dir, " " + SECRET + " \n\n", permissions);
            UcxTrust trust = UcxTrust.sharedSecretFile(file);
            assertArrayEquals(KEY, trust.secret(), permissions);
            assertArrayEquals(KEY, UcxTrust.parse("secret-file:" + file).secret());
            assertArrayEquals(KEY, UcxTrust.parse("SECRET-FILE:" + file).secret(),
                    "the rule's name in any case, the path as is");
        }
    }

    /**
     * A secret file that others may write is as bad as one they may read: whoever writes it chooses a secret they
     * know, and is trusted by the next process that reads it (ssh refuses such key files too).
     */
    @Test
    void aSecretFileWritableByOthersIsRefused(@TempDir Path dir) throws IOException {
        for (String permissions : new String[] {"rw--w----", "rw-----w-"}) {
            Path file = secretFile(dir, SECRET, permissions);
            IOException e = assertThrows(IOException.class, () -> UcxTrust.sharedSecretFile(file), permissions);
            assertTrue(e.getMessage().contains("chmod 600"), permissions + ": " + e.getMessage());
        }
    }

    @Test
    void aSecretFileTooShortOrMissingIsRefused(@TempDir Path dir) throws IOException {
        Path shortFile = secretFile(dir, SECRET.substring(0, 30) + "\n", "rw-------");
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.sharedSecretFile(shortFile));
        Path missing = dir.resolve("missing");
        assertThrows(IOException.class, () -> UcxTrust.sharedSecretFile(missing));
        assertThrows(IOException.class, () -> UcxTrust.parse("secret-file:" + missing));
    }

    // ---- networks ----

    @Test
    void anIpv4NetworkTrustsItsAddressesAndNoOthers() throws IOException {
        UcxTrust trust = UcxTrust.networks("10.0.0.0/8");
        assertTrue(trust.inTrustedNetwork(ip("10.0.0.0")));
        assertTrue(trust.inTrustedNetwork(ip("10.1.2.3")));
        assertTrue(trust.inTrustedNetwork(ip("10.255.255.255")));
        assertFalse(trust.inTrustedNetwork(ip("9.255.255.255")));
        assertFalse(trust.inTrustedNetwork(ip("11.0.0.0")));
        assertFalse(trust.inTrustedNetwork(ip("138.0.0.1")), "the first byte compared whole (10 | 128)");
        assertFalse(trust.inTrustedNetwork(ip("::a01:203")), "an IPv6 address with the same low bytes");
        assertFalse(trust.trustsAnyPeer());
        assertFalse(trust.trustsSameUser());
        assertNull(trust.secret());
    }

    @Test
    void prefixEdgesWithinAByte() throws IOException {
        UcxTrust slash25 = UcxTrust.networks("192.168.1.128/25");
        assertTrue(slash25.inTrustedNetwork(ip("192.168.1.128")));
        assertTrue(slash25.inTrustedNetwork(ip("192.168.1.255")));
        assertFalse(slash25.inTrustedNetwork(ip("192.168.1.127")));
        assertFalse(slash25.inTrustedNetwork(ip("192.168.0.200")));

        UcxTrust slash12 = UcxTrust.networks("172.16.0.0/12");
        assertTrue(slash12.inTrustedNetwork(ip("172.31.255.255")));
        assertFalse(slash12.inTrustedNetwork(ip("172.32.0.0")));
        assertFalse(slash12.inTrustedNetwork(ip("172.15.255.255")));

        UcxTrust slash31 = UcxTrust.networks("10.0.0.2/31");
        assertTrue(slash31.inTrustedNetwork(ip("10.0.0.3")));
        assertFalse(slash31.inTrustedNetwork(ip("10.0.0.4")));
        assertFalse(slash31.inTrustedNetwork(ip("10.0.0.1")));
    }

    @Test
    void aPlainAddressOrA32BitPrefixTrustsThatAddressOnly() throws IOException {
        for (String cidr : new String[] {"10.1.2.3", "10.1.2.3/32"}) {
            UcxTrust trust = UcxTrust.networks(cidr);
            assertTrue(trust.inTrustedNetwork(ip("10.1.2.3")), cidr);
            assertFalse(trust.inTrustedNetwork(ip("10.1.2.2")), cidr);
            assertFalse(trust.inTrustedNetwork(ip("10.1.2.4")), cidr);
        }
        UcxTrust one6 = UcxTrust.networks("fd00::1");
        assertTrue(one6.inTrustedNetwork(ip("fd00::1")));
        assertFalse(one6.inTrustedNetwork(ip("fd00::2")));
    }

    @Test
    void aZeroPrefixTrustsItsWholeFamilyOnly() throws IOException {
        UcxTrust allV4 = UcxTrust.networks("0.0.0.0/0");
        assertTrue(allV4.inTrustedNetwork(ip("1.2.3.4")));
        assertTrue(allV4.inTrustedNetwork(ip("255.255.255.255")));
        assertFalse(allV4.inTrustedNetwork(ip("fd00::1")));
        UcxTrust allV6 = UcxTrust.networks("::/0");
        assertTrue(allV6.inTrustedNetwork(ip("fd00::1")));
        assertFalse(allV6.inTrustedNetwork(ip("1.2.3.4")));
    }

    @Test
    void anIpv6NetworkTrustsItsAddressesAndNoOthers() throws IOException {
        UcxTrust trust = UcxTrust.networks("fd00::/8");
        assertTrue(trust.inTrustedNetwork(ip("fd00::1")));
        assertTrue(trust.inTrustedNetwork(ip("fdff:ffff::1")));
        assertFalse(trust.inTrustedNetwork(ip("fc00::1")));
        assertFalse(trust.inTrustedNetwork(ip("fe80::1")));
        assertFalse(trust.inTrustedNetwork(ip("::1")));
        UcxTrust slash65 = UcxTrust.networks("2001:db8:0:1::/65");
        assertTrue(slash65.inTrustedNetwork(ip("2001:db8:0:1:7fff::1")));
        assertFalse(slash65.inTrustedNetwork(ip("2001:db8:0:1:8000::1")));
    }

    /** An IPv6 socket sees an IPv4 peer as ::ffff:a.b.c.d: it counts as its IPv4 address, no more. */
    @Test
    void anIpv4MappedPeerCountsAsItsIpv4Address() throws IOException {
        UcxTrust trust = UcxTrust.networks("10.0.0.0/8");
        assertTrue(trust.inTrustedNetwork(mapped("10.9.8.7")));
        assertFalse(trust.inTrustedNetwork(mapped("11.9.8.7")));
        assertFalse(UcxTrust.networks("::/0").inTrustedNetwork(mapped("10.9.8.7")),
                "a mapped peer is an IPv4 peer, not in every IPv6 network");
        UcxTrust almostMapped = UcxTrust.networks("10.0.0.0/8");
        byte[] notMapped = mapped("10.9.8.7").getAddress();
        notMapped[9] = 1;
        assertFalse(almostMapped.inTrustedNetwork(Inet6Address.getByAddress(null, notMapped, -1)),
                "an address that only looks like a mapped one");
    }

    /**
     * A rule written in the mapped form (as ss or netstat show IPv4 peers of IPv6 sockets) must not be a rule that
     * silently trusts no one: it either trusts the IPv4 network it names or is refused when parsed.
     */
    @Test
    void aNetworkWrittenInTheMappedFormIsNotSilentlyDead() throws IOException {
        UcxTrust trust;
        try {
            trust = UcxTrust.networks("::ffff:10.0.0.0/104");
        } catch (IllegalArgumentException refused) {
            return;
        }
        assertTrue(trust.inTrustedNetwork(ip("10.9.8.7")) && trust.inTrustedNetwork(mapped("10.9.8.7")),
                "::ffff:10.0.0.0/104 trusts neither 10.9.8.7 nor ::ffff:10.9.8.7");
        assertFalse(trust.inTrustedNetwork(ip("11.9.8.7")));
    }

    @Test
    void badNetworksAreRefused() {
        String[] bad = {"10.0.0.0/33", "fd00::/129", "10.0.0.0/-1", "10.0.0.0/", "10.0.0.0/x", "localhost",
            "example.com/8", "10.0.0/8", "", "/8", "10.0.0.0/8/8", "300.0.0.0/8"};
        for (String cidr : bad) {
            assertThrows(IllegalArgumentException.class, () -> UcxTrust.networks(cidr), "'" + cidr + "'");
        }
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.parse("networks:"));
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.parse("networks:10.0.0.0/8;bogus"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UcxTrust.networks("intranet.example"));
        assertTrue(e.getMessage().contains("not an IP network"), e.getMessage());
    }

    @Test
    void severalNetworksParsedFromTheCommandLine() throws IOException {
        UcxTrust trust = UcxTrust.parse("networks:10.0.0.0/8; 192.168.7.0/24;fd00::/8");
        assertTrue(trust.inTrustedNetwork(ip("10.3.3.3")));
        assertTrue(trust.inTrustedNetwork(ip("192.168.7.9")));
        assertTrue(trust.inTrustedNetwork(ip("fd12::9")));
        assertFalse(trust.inTrustedNetwork(ip("192.168.8.9")));
        assertFalse(trust.trustsSameUser());
        assertEquals("10.0.0.0/8, 192.168.7.0/24, fd00:0:0:0:0:0:0:0/8", trust.toString());
    }

    // ---- combinations ----

    @Test
    void orTrustsWhatEitherTrusts() throws IOException {
        UcxTrust trust = UcxTrust.sameUser().or(UcxTrust.networks("10.0.0.0/8"))
                .or(UcxTrust.sharedSecret(KEY));
        assertTrue(trust.trustsSameUser());
        assertFalse(trust.trustsAnyPeer());
        assertTrue(trust.inTrustedNetwork(ip("10.1.1.1")));
        assertFalse(trust.inTrustedNetwork(ip("11.1.1.1")));
        assertNotNull(trust.secret());

        UcxTrust unchanged = UcxTrust.networks("10.0.0.0/8");
        unchanged.or(UcxTrust.networks("11.0.0.0/8")).or(UcxTrust.anyPeer());
        assertFalse(unchanged.inTrustedNetwork(ip("11.1.1.1")), "or() changed the rules it was called on");
        assertFalse(unchanged.trustsAnyPeer());
        assertFalse(UcxTrust.none().trustsAnyPeer(), "or() changed none()");

        assertNull(UcxTrust.sameUser().or(UcxTrust.none()).secret());
        assertTrue(UcxTrust.none().or(UcxTrust.anyPeer()).trustsAnyPeer());
    }

    @Test
    void orKeepsASecretFromEitherSide() {
        byte[] first = UcxKeys.generate();
        byte[] second = UcxKeys.generate();
        assertArrayEquals(first, UcxTrust.sharedSecret(first).or(UcxTrust.sameUser()).secret());
        assertArrayEquals(first, UcxTrust.sameUser().or(UcxTrust.sharedSecret(first)).secret());
        UcxTrust both = UcxTrust.sharedSecret(first).or(UcxTrust.sharedSecret(second));
        assertEquals(2, both.secrets().size(), "with two secrets, both are kept (a rotation)");
        assertArrayEquals(first, both.secrets().get(0));
        assertArrayEquals(second, both.secrets().get(1));
        assertEquals("2 shared secrets", both.toString());
        assertEquals(2, UcxTrust.sharedSecrets(first, second).secrets().size());
        assertEquals(1, UcxTrust.sharedSecret(first).or(UcxTrust.sharedSecret(first.clone())).secrets().size(),
                "the same key twice is one key");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> both.or(UcxTrust.sharedSecret(UcxKeys.generate())));
        assertTrue(e.getMessage().contains("at most 2"), "a third key is refused, not dropped: " + e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.sharedSecrets());
    }

    /** Two secret-file rules, as a rotation sets them on the command line: both keys count. */
    @Test
    void twoSecretFileRulesKeepBothKeys(@TempDir Path dir) throws IOException {
        Path old = dir.resolve("old.key");
        Path fresh = dir.resolve("new.key");
        UcxKeys.writeNewKeyFile(old);
        UcxKeys.writeNewKeyFile(fresh);
        UcxTrust trust = UcxTrust.parse("secret-file:" + old + ",secret-file:" + fresh);
        assertEquals(2, trust.secrets().size());
        assertArrayEquals(UcxTrust.sharedSecretFile(old).secret(), trust.secrets().get(0));
        assertArrayEquals(UcxTrust.sharedSecretFile(fresh).secret(), trust.secrets().get(1));
    }

    @Test
    void rulesJoinedWithCommas(@TempDir Path dir) throws IOException {
        Path file = secretFile(dir, SECRET, "rw-------");
        UcxTrust trust = UcxTrust.parse("same-user, networks:10.0.0.0/8,secret-file:" + file);
        assertTrue(trust.trustsSameUser());
        assertFalse(trust.trustsAnyPeer());
        assertTrue(trust.inTrustedNetwork(ip("10.2.2.2")));
        assertArrayEquals(KEY, trust.secret());
        assertEquals("same-user, shared secret, 10.0.0.0/8", trust.toString());

        UcxTrust withNone = UcxTrust.parse("none,same-user");
        assertTrue(withNone.trustsSameUser(), "none adds nothing, and takes nothing away");
        assertEquals("any, same-user", UcxTrust.parse("same-user,any").toString());
    }
}
