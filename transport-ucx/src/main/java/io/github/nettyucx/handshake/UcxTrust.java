/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.netty.util.NetUtil;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.SystemPropertyUtil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which peers a connection hands to UCX. A peer's UCP worker address reaches UCX (and ours reaches the peer) only
 * when each side trusts the other; a netty-ucx peer that is not trusted gets the TCP data path (the connection's
 * own TCP socket as plain TCP, no UCX), or is refused where that path is off. A peer is trusted when any of the
 * rules set here holds:
 * <ul>
 * <li>{@link #sameUser()}: the peer is a process of this host, in this network namespace, running as this
 * process's user: the kernel's socket table says so for the peer's end of the TCP connection. The default;</li>
 * <li>{@link #sharedSecret(byte[])}: the peer proves it knows the same random key, by a challenge and response on
 * the TCP connection before any worker address is sent (two keys during a rotation: {@link #sharedSecrets});</li>
 * <li>{@link #networks(String...)}: the peer's address is in one of these networks (for fabrics isolated by
 * design: anyone who can reach the port counts as trusted);</li>
 * <li>{@link #anyPeer()}: every peer (the behaviour before trust rules; only for networks where every host
 * is trusted).</li>
 * </ul>
 * Set it per channel with {@link io.github.nettyucx.transport.UcxChannelOption#TRUST} (on a server as a child
 * option), or for the process with
 * {@code -Dio.github.nettyucx.trust}: {@code same-user}, {@code secret-file:PATH}, {@code secret:KEY}
 * (hex or base64), {@code networks:CIDR[;CIDR...]}, {@code any} or {@code none}, several joined with {@code ,}
 * (two secret rules: both keys). docs/security.md tells what each protects against.
 */
public final class UcxTrust {
    private static final UcxTrust NONE = new UcxTrust(false, false, Collections.emptyList(), Collections.emptyList());
    private static final UcxTrust SAME_USER = new UcxTrust(true, false, Collections.emptyList(),
            Collections.emptyList());
    private static final UcxTrust ANY = new UcxTrust(false, true, Collections.emptyList(), Collections.emptyList());
    /** A secret shorter than this is guessable. */
    public static final int MIN_SECRET_BYTES = UcxKeys.MIN_KEY_BYTES;
    /** The old key and the new one, during a rotation: the intro names at most this many. */
    static final int MAX_SECRETS = 2;
    private static volatile UcxTrust processDefault;

    private final boolean sameUser;
    private final boolean any;
    /** The shared keys, at most {@link #MAX_SECRETS}, in the order given: the first is preferred. */
    private final List<byte[]> secrets;
    /** {@link UcxKeys#keyId} of each secret, in the same order: computed once, not per connection. */
    private final List<byte[]> keyIds;
    private final List<Network> networks;

    private UcxTrust(boolean sameUser, boolean any, List<byte[]> secrets, List<Network> networks) {
        this.sameUser = sameUser;
        this.any = any;
        this.secrets = secrets;
        List<byte[]> ids = new ArrayList<>();
        for (byte[] secret : secrets) {
            ids.add(UcxKeys.keyId(secret));
        }
        this.keyIds = Collections.unmodifiableList(ids);
        this.networks = networks;
    }

    /** Trusts no peer: every netty-ucx peer gets the TCP data path. */
    public static UcxTrust none() {
        return NONE;
    }

    /** Trusts processes of this host and network namespace that run as this process's user. */
    public static UcxTrust sameUser() {
        return SAME_USER;
    }

    /** Trusts every peer that reaches the port. Use only where every host of the network is trusted. */
    public static UcxTrust anyPeer() {
        return ANY;
    }

    /**
     * Trusts peers that know the random key {@code secret} (at least 16 bytes, such as {@link UcxKeys#generate()}
     * makes; the same on both sides), proved by each side with an HMAC-SHA256 over both sides' random challenges.
     * The key itself never goes over the network. A passphrase is refused ({@link UcxKeys}): one recorded proof
     * would let an attacker try guesses offline.
     */
    public static UcxTrust sharedSecret(byte[] secret) {
        return sharedSecrets(secret);
    }

    /**
     * {@link #sharedSecret(byte[])} with two keys, for a rotation: a peer that knows either is trusted, and two
     * peers that share at least one of their keys use it. Roll the new key out to every server (old and new), then
     * to the clients, then drop the old one.
     */
    public static UcxTrust sharedSecrets(byte[]... secrets) {
        ObjectUtil.checkNotNull(secrets, "secrets");
        if (secrets.length == 0 || secrets.length > MAX_SECRETS) {
            throw new IllegalArgumentException("give one or two shared keys (two during a rotation), got "
                    + secrets.length);
        }
        List<byte[]> keys = new ArrayList<>();
        for (byte[] secret : secrets) {
            ObjectUtil.checkNotNull(secret, "secret");
            UcxKeys.check(secret, "the shared secret");
            keys.add(secret.clone());
        }
        return new UcxTrust(false, false, joined(Collections.emptyList(), keys), Collections.emptyList());
    }

    /**
     * {@link #sharedSecret(byte[])} with the key in {@code file} (hex, base64 or raw bytes: {@link UcxKeys} tells the
     * format; {@code bin/ucx-keygen FILE} writes one), which must not be readable by other users or the group (as
     * ssh demands of a private key).
     */
    public static UcxTrust sharedSecretFile(Path file) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        // Whoever can write it can put in a secret they know; whoever can read it knows it.
        for (PosixFilePermission open : Arrays.asList(PosixFilePermission.GROUP_READ,
                PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE)) {
            if (permissions.contains(open)) {
                throw new IOException("the netty-ucx secret file " + file + " is open to others (" + open
                        + "): chmod 600 " + file);
            }
        }
        return sharedSecret(UcxKeys.decodeFile(Files.readAllBytes(file), "the netty-ucx key file " + file));
    }

    /**
     * Trusts peers whose address (as this side's socket sees it) lies in one of {@code cidrs}, such as
     * {@code 10.0.0.0/8} or {@code fd00::/8}; a plain address means that address only.
     */
    public static UcxTrust networks(String... cidrs) {
        List<Network> parsed = new ArrayList<>();
        for (String cidr : cidrs) {
            parsed.add(Network.parse(cidr));
        }
        return new UcxTrust(false, false, Collections.emptyList(), Collections.unmodifiableList(parsed));
    }

    /**
     * A peer is trusted when this or {@code other} trusts it. The shared keys of both are kept (this one's first):
     * at most two different keys, the old and the new one of a rotation.
     */
    public UcxTrust or(UcxTrust other) {
        List<Network> joined = new ArrayList<>(networks);
        joined.addAll(other.networks);
        return new UcxTrust(sameUser || other.sameUser, any || other.any, joined(secrets, other.secrets),
                Collections.unmodifiableList(joined));
    }

    /** Both lists of keys, a key in both once; more than {@link #MAX_SECRETS} is refused, never dropped. */
    private static List<byte[]> joined(List<byte[]> first, List<byte[]> second) {
        List<byte[]> keys = new ArrayList<>(first);
        for (byte[] key : second) {
            if (keys.stream().noneMatch(k -> Arrays.equals(k, key))) {
                keys.add(key);
            }
        }
        if (keys.size() > MAX_SECRETS) {
            throw new IllegalArgumentException("at most " + MAX_SECRETS + " shared keys (the old and the new one of a "
                    + "rotation), got " + keys.size() + ": drop the oldest");
        }
        return Collections.unmodifiableList(keys);
    }

    /**
     * The trust rules of {@code -Dio.github.nettyucx.trust} (see the class comment), {@link #sameUser()} when it is
     * not set.
     */
    public static UcxTrust processDefault() {
        UcxTrust trust = processDefault;
        if (trust == null) {
            String spec = SystemPropertyUtil.get("io.github.nettyucx.trust", "same-user");
            try {
                trust = parse(spec);
            } catch (IOException e) {
                throw new UncheckedIOException("-Dio.github.nettyucx.trust=" + spec + ": " + e.getMessage(), e);
            }
            processDefault = trust;
        }
        return trust;
    }

    /** Parses rules as {@code -Dio.github.nettyucx.trust} takes them. */
    public static UcxTrust parse(String spec) throws IOException {
        UcxTrust trust = NONE;
        for (String rule : spec.split(",")) {
            trust = trust.or(parseRule(rule.strip()));
        }
        return trust;
    }

    private static UcxTrust parseRule(String rule) throws IOException {
        String lower = rule.toLowerCase(Locale.ROOT);
        if ("same-user".equals(lower)) {
            return SAME_USER;
        }
        if ("any".equals(lower)) {
            return ANY;
        }
        if ("none".equals(lower) || lower.isEmpty()) {
            return NONE;
        }
        if (lower.startsWith("secret-file:")) {
            return sharedSecretFile(Paths.get(rule.substring("secret-file:".length())));
        }
        if (lower.startsWith("secret:")) {
            return sharedSecret(UcxKeys.decodeText(rule.substring("secret:".length()), "the secret: rule's key"));
        }
        if (lower.startsWith("networks:")) {
            return networks(rule.substring("networks:".length()).split(";"));
        }
        throw new IllegalArgumentException("unknown netty-ucx trust rule '" + rule + "' (expected same-user, "
                + "secret-file:PATH, secret:KEY, networks:CIDR[;CIDR...], any or none)");
    }

    boolean trustsSameUser() {
        return sameUser;
    }

    boolean trustsAnyPeer() {
        return any;
    }

    /** The first shared key, or null. */
    byte[] secret() {
        return secrets.isEmpty() ? null : secrets.get(0);
    }

    /** The shared keys, preferred first; empty without a secret rule. */
    List<byte[]> secrets() {
        return secrets;
    }

    /** The ids of {@link #secrets()}, in the same order. */
    List<byte[]> keyIds() {
        return keyIds;
    }

    boolean inTrustedNetwork(InetAddress address) {
        for (Network network : networks) {
            if (network.contains(address)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        List<String> rules = new ArrayList<>();
        if (any) {
            rules.add("any");
        }
        if (sameUser) {
            rules.add("same-user");
        }
        if (secrets.size() == 1) {
            rules.add("shared secret");
        } else if (!secrets.isEmpty()) {
            rules.add(secrets.size() + " shared secrets");
        }
        for (Network network : networks) {
            rules.add(network.toString());
        }
        return rules.isEmpty() ? "none" : String.join(", ", rules);
    }

    /** An address prefix. IPv4-mapped IPv6 addresses count as their IPv4 address. */
    private static final class Network {
        private final byte[] prefix;
        private final int bits;

        private Network(byte[] prefix, int bits) {
            this.prefix = prefix;
            this.bits = bits;
        }

        static Network parse(String cidr) {
            String text = cidr.strip();
            int slash = text.indexOf('/');
            String host = slash < 0 ? text : text.substring(0, slash);
            // Only literals: a host name would make trust depend on the resolver.
            byte[] address = NetUtil.createByteArrayFromIpAddressString(host);
            if (address == null) {
                throw new IllegalArgumentException("not an IP network: '" + cidr + "' (write 10.0.0.0/8 or fd00::/8)");
            }
            int bits = slash < 0 ? address.length * 8 : Integer.parseInt(text.substring(slash + 1));
            if (bits < 0 || bits > address.length * 8) {
                throw new IllegalArgumentException("bad prefix length in '" + cidr + "'");
            }
            byte[] unmapped = unmapped(address);
            if (unmapped.length != address.length) {
                // Peers are compared in their IPv4 form, so an IPv4-mapped network is one too.
                if (bits < 96) {
                    throw new IllegalArgumentException("an IPv4-mapped network needs a prefix of at least 96 bits: '"
                            + cidr + "'");
                }
                return new Network(unmapped, bits - 96);
            }
            return new Network(address, bits);
        }

        boolean contains(InetAddress address) {
            byte[] bytes = unmapped(address.getAddress());
            if (bytes.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit & 7);
                if ((bytes[bit >>> 3] & mask) != (prefix[bit >>> 3] & mask)) {
                    return false;
                }
            }
            return true;
        }

        private static byte[] unmapped(byte[] address) {
            if (address.length != 16) {
                return address;
            }
            for (int i = 0; i < 10; i++) {
                if (address[i] != 0) {
                    return address;
                }
            }
            if (address[10] != (byte) 0xFF || address[11] != (byte) 0xFF) {
                return address;
            }
            return Arrays.copyOfRange(address, 12, 16);
        }

        @Override
        public String toString() {
            try {
                return InetAddress.getByAddress(prefix).getHostAddress() + '/' + bits;
            } catch (UnknownHostException e) {
                return Arrays.toString(prefix) + '/' + bits;
            }
        }
    }
}
