/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28, "endpoint creation never blocks a loop" (docs/security.md): a trusted peer whose UCP worker address
 * names a black-holed TCP address cannot stall the server's event loop.
 * <p>
 * The server is an echo server in a child JVM with one event loop, {@code UCX_TLS=tcp} and the TCP data path off,
 * so that a trusted peer gets UCX over UCX's tcp transport. A healthy UCX client of this JVM echoes small messages
 * with it, timing each round trip. The attacker is a {@link RawUcxPeer} of this JVM (same user: trusted) that does
 * the v6 handshake but sends a forged copy of its worker address, in which the port of each of its worker's UCX tcp
 * listeners (a tcp interface address is its port, big endian, packed verbatim into the worker address by UCX 1.13)
 * is replaced by the port of a black hole on every address ({@link LoopbackBlackHole#onEveryAddress()}). The
 * server's {@code ucp_ep_create} then dials the black hole: with the transport's default {@code UCX_TCP_CONN_NB=y}
 * the connect is non-blocking and the loop goes on echoing; with {@code UCX_TCP_CONN_NB=n} (the control) the loop
 * hangs in {@code connect()} for the kernel's SYN retries (minutes), which shows that the test can fail. The control
 * server is killed afterwards. With the default, the connection whose endpoint never comes up is then failed by the
 * server's connect timeout.
 */
class BlackHoledEndpointTest {
    /** How long the healthy client keeps echoing once the forged address is sent. */
    private static final long ATTACK_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** Far below the kernel's SYN retry time (1 s for the first retransmission, ~2 min in all). */
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long one round trip may take before the loop counts as stuck. */
    private static final long ECHO_WAIT_SECONDS = 3;
    private static final String LISTEN = "0A";
    private static final String SYN_SENT = "02";
    private static EventLoopGroup group;

    static {
        // This JVM's clients reach the server over UCX's tcp transport, which the transport opens only with the TCP
        // data path off; each test class runs in a JVM of its own (reuseForks=false), so no UCX class is loaded yet.
        System.setProperty("io.github.nettyucx.tcpDataPath", "never");
    }

    @BeforeAll
    static void startGroup() {
        TestTransport.UCX.assumeAvailable();
        group = TestTransport.UCX.newGroup(1);
    }

    @AfterAll
    static void stopGroup() throws InterruptedException {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBlackHoledWorkerAddressDoesNotStallTheLoop() throws Exception {
        Outcome outcome = attack(null);
        assertEquals(0, outcome.during.unanswered, "the healthy client got no echo within " + ECHO_WAIT_SECONDS
                + " s while the server dialed the black hole: " + outcome);
        assertTrue(outcome.during.maxNanos < STALL_NANOS, "a round trip took "
                + outcome.during.maxNanos / 1_000_000 + " ms while the server dialed the black hole: " + outcome);
        assertTrue(outcome.during.count > 1, "too few round trips during the attack: " + outcome);
    }

    /** The control: UCX's blocking connect (the user's UCX_TCP_CONN_NB=n wins) holds the loop, so the test can fail. */
    @Test
    void withBlockingConnectsTheSameAddressStallsTheLoop() throws Exception {
        Outcome outcome = attack("n");
        assertTrue(outcome.during.unanswered > 0 || outcome.during.maxNanos >= STALL_NANOS,
                "UCX_TCP_CONN_NB=n did not stall the loop, so the test cannot tell: " + outcome);
    }

    /** The server started, echoed, attacked; what the healthy client saw before and during the attack. */
    private static Outcome attack(String connNb) throws Exception {
        try (LoopbackBlackHole hole = LoopbackBlackHole.onEveryAddress()) {
            ChildJvm.Builder builder = ChildJvm.builder(ReliabilityPeer.class)
                    .name("echo-server UCX_TCP_CONN_NB=" + (connNb == null ? "default" : connNb))
                    .env("UCX_TLS", "tcp")
                    .jvmOption("-Dio.github.nettyucx.tcpDataPath=never")
                    .args("echo-server", "127.0.0.1"); // one event loop for the server and its children
            if (connNb != null) {
                builder.env("UCX_TCP_CONN_NB", connNb);
            }
            ChildJvm server = builder.start();
            Pinger healthy = null;
            try {
                InetSocketAddress address = new InetSocketAddress("127.0.0.1",
                        Integer.parseInt(server.awaitValue(ReliabilityPeer.PORT)));
                healthy = new Pinger(address);
                Outcome outcome = new Outcome(connNb);
                outcome.before = healthy.echoFor(TimeUnit.MILLISECONDS.toNanos(500));
                assertEquals(0, outcome.before.unanswered, "no echo before the attack: " + server.output());
                try (RawUcxPeer attacker = forgedHandshake(address, hole.port(), outcome)) {
                    outcome.during = healthy.echoFor(ATTACK_NANOS);
                    outcome.synSent = socketsOf(server.pid(), SYN_SENT, hole.port());
                    outcome.endpoints = endpoints(server);
                    System.out.println("BlackHoledEndpointTest: " + outcome);
                    // The attack reached the point it is about: the server called ucp_ep_create with the forged
                    // address (the healthy client's endpoint is the other one) and dialed the black hole.
                    assertEquals(2, outcome.endpoints, "endpoints the server created: " + outcome);
                    assertTrue(outcome.synSent > 0, "the server is not dialing the black hole's port "
                            + hole.port() + ": " + outcome + "; server output:\n" + server.output());
                    if (connNb == null) {
                        // It keeps serving: the healthy client, and a new client on the same loop.
                        assertEquals(0, healthy.echoFor(0).unanswered, "the healthy client after the attack");
                        Pinger newcomer = new Pinger(address);
                        try {
                            assertEquals(0, newcomer.echoFor(0).unanswered, "a new client after the attack");
                        } finally {
                            newcomer.close();
                        }
                        // And the endpoint that never came up is bounded: the server's connect timeout (its child
                        // CONNECT_TIMEOUT_MILLIS, but at least 10 s) fails that connection.
                        assertTrue(attacker.awaitClosedByServer(20), "the connection whose endpoint never came up "
                                + "is still open; server output:\n" + server.output());
                        assertTrue(server.awaitOutput("the UCX endpoint to the peer did not come up", 5),
                                "the server did not say why; its output:\n" + server.output());
                    }
                }
                return outcome;
            } finally {
                server.close(); // SIGKILL: the control server's loop may be stuck in connect() for minutes
                if (healthy != null) {
                    healthy.close();
                }
            }
        }
    }

    /**
     * A {@link RawUcxPeer} that completed the handshake with {@code server}, having sent its worker address with the
     * port of each UCX tcp listener of its worker replaced by {@code holePort}, and created no endpoint. A port that
     * does not occur exactly once in the address (a random field may happen to hold the same two bytes) is
     * ambiguous: then the peer is dropped and another one (new worker, new ports) tries.
     */
    private static RawUcxPeer forgedHandshake(InetSocketAddress server, int holePort, Outcome outcome)
            throws IOException {
        for (int attempt = 1;; attempt++) {
            Set<Integer> listeningBefore = portsOf(ProcessHandle.current().pid(), LISTEN);
            RawUcxPeer peer = RawUcxPeer.connect(server);
            try {
                return peer.handshake(real -> forge(real, listeningBefore, holePort, outcome), false);
            } catch (AmbiguousPort e) {
                peer.close();
                if (attempt == 3) {
                    throw e;
                }
            } catch (IOException | RuntimeException | Error e) {
                peer.close();
                throw e;
            }
        }
    }

    /** A port found more or less than once in the worker address. */
    private static final class AmbiguousPort extends IOException {
        private static final long serialVersionUID = 1L;

        AmbiguousPort(String message) {
            super(message);
        }
    }

    private static byte[] forge(byte[] real, Set<Integer> listeningBefore, int holePort, Outcome outcome)
            throws IOException {
        // The listeners this peer's worker opened: UCX's tcp interfaces, one per network device.
        Set<Integer> own = portsOf(ProcessHandle.current().pid(), LISTEN);
        own.removeAll(listeningBefore);
        Assumptions.assumeFalse(own.isEmpty(), "this JVM's UCX worker has no tcp listener (UCX_TLS without tcp?)");
        byte[] forged = real.clone();
        StringBuilder found = new StringBuilder();
        for (int port : own) {
            List<Integer> bigEndian = offsetsOf(real, (byte) (port >>> 8), (byte) port);
            List<Integer> littleEndian = offsetsOf(real, (byte) port, (byte) (port >>> 8));
            found.append(" port ").append(port).append(": big endian at ").append(bigEndian)
                    .append(", little endian at ").append(littleEndian).append(';');
            if (bigEndian.size() != 1) {
                throw new AmbiguousPort("the worker address (" + real.length + " bytes) holds its tcp listener's"
                        + " port " + port + " as big-endian bytes " + bigEndian.size() + " times, not once");
            }
            forged[bigEndian.get(0)] = (byte) (holePort >>> 8);
            forged[bigEndian.get(0) + 1] = (byte) holePort;
        }
        outcome.address = real.length + " bytes, tcp listeners of its worker:" + found;
        return forged;
    }

    private static List<Integer> offsetsOf(byte[] bytes, byte first, byte second) {
        List<Integer> offsets = new ArrayList<>();
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == first && bytes[i + 1] == second) {
                offsets.add(i);
            }
        }
        return offsets;
    }

    /** The local ports of the TCP sockets of process {@code pid} in {@code state} (a /proc/net/tcp st value). */
    private static Set<Integer> portsOf(long pid, String state) throws IOException {
        Set<Integer> ports = new HashSet<>();
        for (String[] row : socketRows(pid, state)) {
            ports.add(port(row[1]));
        }
        return ports;
    }

    /** How many TCP sockets of process {@code pid} in {@code state} have remote port {@code remotePort}. */
    private static int socketsOf(long pid, String state, int remotePort) throws IOException {
        int count = 0;
        for (String[] row : socketRows(pid, state)) {
            if (port(row[2]) == remotePort) {
                count++;
            }
        }
        return count;
    }

    /**
     * The rows of /proc/net/tcp and tcp6 (this network namespace's sockets, which the child's are too) in
     * {@code state} whose inode is one of the sockets open in process {@code pid}.
     */
    private static List<String[]> socketRows(long pid, String state) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed meanwhile
                }
                if (target.startsWith("socket:[")) {
                    inodes.add(target.substring("socket:[".length(), target.length() - 1));
                }
            }
        }
        List<String[]> rows = new ArrayList<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(1, lines.size())) {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                String[] row = line.trim().split("\\s+");
                if (row.length > 9 && row[3].equals(state) && inodes.contains(row[9])) {
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** The port of a /proc/net/tcp address, {@code ADDRESS:PORT} in hex. */
    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
    }

    /** The server's count of ucp_ep_create calls, asked on its standard input (not through its event loop). */
    private static long endpoints(ChildJvm server) throws IOException, InterruptedException {
        server.send("ENDPOINTS");
        return Long.parseLong(server.awaitValue(ReliabilityPeer.ENDPOINTS));
    }

    /** Round trips of the healthy client over some time. */
    private static final class Echoes {
        int count;
        long maxNanos;
        /** Round trips that got no echo within {@link #ECHO_WAIT_SECONDS} (the pinging stops at the first). */
        int unanswered;

        @Override
        public String toString() {
            return count + " round trips, longest " + String.format("%.3f", maxNanos / 1e6) + " ms"
                    + (unanswered > 0 ? ", then no echo within " + ECHO_WAIT_SECONDS + " s" : "");
        }
    }

    private static final class Outcome {
        final String connNb;
        String address;
        Echoes before;
        Echoes during;
        int synSent;
        long endpoints;

        Outcome(String connNb) {
            this.connNb = connNb;
        }

        @Override
        public String toString() {
            return "UCX_TCP_CONN_NB=" + (connNb == null ? "(default)" : connNb) + "; forged worker address: "
                    + address + " before the attack: " + before + "; during: " + during + "; server sockets in"
                    + " SYN_SENT to the black hole: " + synSent + "; server endpoints: " + endpoints;
        }
    }

    /** A UCX client of this JVM that echoes small messages with the server, one at a time. */
    private static final class Pinger {
        private final Channel channel;
        private final BlockingQueue<String> echoes = new LinkedBlockingQueue<>();
        private int sent;

        Pinger(InetSocketAddress server) throws InterruptedException {
            channel = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                    .handler(new LineReceiver(echoes))
                    .connect(server).sync().channel();
        }

        /** Round trips, one after another, for {@code nanos} (at least one); stops at the first unanswered one. */
        Echoes echoFor(long nanos) throws InterruptedException {
            Echoes result = new Echoes();
            long end = System.nanoTime() + nanos;
            do {
                String probe = "ping " + (++sent);
                long start = System.nanoTime();
                channel.writeAndFlush(Unpooled.copiedBuffer(probe + "\n", StandardCharsets.US_ASCII));
                String echo = echoes.poll(ECHO_WAIT_SECONDS, TimeUnit.SECONDS);
                long took = System.nanoTime() - start;
                result.maxNanos = Math.max(result.maxNanos, took);
                if (echo == null) {
                    result.unanswered++;
                    return result;
                }
                assertEquals(probe, echo, "the healthy client's stream was corrupted");
                result.count++;
                Thread.sleep(1);
            } while (System.nanoTime() < end);
            return result;
        }

        void close() throws InterruptedException {
            channel.close().await(5, TimeUnit.SECONDS);
        }
    }
}
