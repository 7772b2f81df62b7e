/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannelConfig;
import io.github.nettyucx.loop.UcxWorkerKey;
import io.netty.channel.Channel;
import io.netty.channel.DefaultChannelPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link UcxConnector}, a client's and a server's back to back with no event loop, no socket and no native
 * connection: what each sends when, which data path both choose for each pairing of trust rules, that no worker
 * address leaves before both sides trust each other, and the deadlines of the handshake.
 */
class UcxConnectorTest {
    private static final byte[] SECRET = HexFormat.of().parseHex(
            "b7ac21e9de3e2b5ed2ac830995d96139d9fc45b457864dad97cd11fb4c984f46");
    private static final byte[] OTHER_SECRET = HexFormat.of().parseHex(
            "7d2579ae1a1970a4f0e650c30de83040bf1b87f9f372f6412d5eca42560b62ad");
    /** A peer in no network of these tests (TEST-NET-1), not on this host. */
    private static final InetSocketAddress STRANGER = new InetSocketAddress(testNet(7), 40000);

    private final List<UcxSocketChannel> channels = new ArrayList<>();

    @AfterEach
    void releaseChannels() {
        for (UcxSocketChannel channel : channels) {
            ((Channel) channel).unsafe().closeForcibly();
        }
    }

    private static InetAddress testNet(int host) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, (byte) host});
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private UcxSocketChannelConfig config(UcxTrust trust) {
        UcxSocketChannel channel = new UcxSocketChannel();
        channels.add(channel);
        UcxSocketChannelConfig config = channel.config();
        config.setOption(UcxChannelOption.TRUST, trust);
        return config;
    }

    @Test
    void sharedSecretBothWaysChoosesTheSameDataPathAndSendsAddressesOnlyAfterTheHellos() throws IOException {
        Pair pair = new Pair(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        pair.client.connector.tcpConnected();
        assertEquals(1, pair.client.sends, "the client's intro goes out at once");
        assertNull(pair.client.endpoint, "no connection before the server answered as a netty-ucx server");

        pair.toServer();
        assertNotNull(pair.server.sent(), "the server answers the intro");
        assertNull(pair.server.endpoint, "the server creates its connection only for a client's hello");

        pair.toClient();
        assertNotNull(pair.client.endpoint, "the client's connection, once the server proved itself");
        assertFalse(pair.client.sentAddress(), "no address in the client's hello");

        pair.toServer();
        // Over UCX the server's address follows its hello, and it waits for the client's; else it chose TCP now.
        boolean ucx = pair.server.sentAddress();
        assertEquals(ucx, pair.server.endpoint != null, "the server's connection, over UCX only");
        assertEquals(ucx ? null : UcxDataPathPolicy.Choice.TCP, pair.server.choice);
        assertFalse(pair.client.sentAddress(), "the client's address waits for the server's hello");

        pair.toClient();
        pair.toServer();
        UcxDataPathPolicy.Choice choice = ucx ? UcxDataPathPolicy.Choice.UCX : UcxDataPathPolicy.Choice.TCP;
        assertEquals(choice, pair.client.choice, "both sides choose the same data path");
        assertEquals(choice, pair.server.choice);
        assertEquals(ucx, pair.client.sentAddress());
        assertEquals("mutual", pair.client.connector.trustVerdict());
        assertEquals("mutual", pair.server.connector.trustVerdict());
        if (ucx) {
            assertTrue(pair.server.connector.session().isEstablished());
            assertTrue(pair.client.connector.session().isEstablished());
            assertEquals(pair.server.endpoint.id, pair.client.peer.connectionId);
            assertArrayEquals(pair.server.address, pair.client.peer.workerAddress);
        }
    }

    /** The hellos and the server's address of a client ({@code fallback} on or off) and a server with one secret. */
    private Pair upToTheServersAddress(boolean fallback) throws IOException {
        Pair pair = new Pair(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        if (fallback) {
            pair.client.config.setOption(UcxChannelOption.PLAIN_TCP_FALLBACK, true);
            pair.client.config.setConnectTimeoutMillis(0);
            DefaultChannelPromise promise = new DefaultChannelPromise(channels.get(0), ImmediateEventExecutor.INSTANCE);
            pair.client.connector.connecting(promise, STRANGER, null, () -> { });
        }
        pair.client.connector.tcpConnected();
        assertEquals(fallback, pair.client.connector.mayFallBack(), "before the server answered");
        pair.toServer();
        pair.toClient();
        pair.toServer();
        assumeTrue(pair.server.sentAddress(), "UCX was not chosen here (no shared memory, or "
                + "-Dio.github.nettyucx.tcpDataPath=always): no address to alter");
        return pair;
    }

    @Test
    void theClientSendsItsAddressOnlyOnceTheServersArrived() throws IOException {
        Pair pair = upToTheServersAddress(false);
        pair.toClient(UcxHandshake.SERVER_INTRO_BYTES + UcxHandshake.HELLO_BYTES + 10);
        assertFalse(pair.client.sentAddress(), "the server's hello and part of its address arrived");
        assertNull(pair.client.choice);
        pair.toClient();
        assertTrue(pair.client.sentAddress());
        assertEquals(UcxDataPathPolicy.Choice.UCX, pair.client.choice);
    }

    /**
     * A man in the middle that relays the intros (so that both proofs check out) and then points a side at another
     * worker address, or changes the hello before it: that side refuses before creating an endpoint, and a client
     * neither sends its own address nor falls back to plain TCP.
     */
    @Test
    void anAddressOrHelloAlteredOnTheWayIsRefused() throws IOException {
        int serverAddressByte = UcxHandshake.SERVER_INTRO_BYTES + UcxHandshake.HELLO_BYTES
                + UcxHandshake.ADDRESS_HEADER_BYTES + 9;
        int serverWindowByte = UcxHandshake.SERVER_INTRO_BYTES + 19;
        for (int altered : new int[] {serverAddressByte, serverWindowByte}) {
            Pair pair = upToTheServersAddress(true);
            pair.flipToClient = altered;
            ProtocolException refused = assertThrows(ProtocolException.class, pair::toClient);
            assertTrue(refused.getMessage().contains("altered on the way"), refused.getMessage());
            assertNull(pair.client.choice, "no endpoint to an address the server did not send");
            assertFalse(pair.client.sentAddress(), "our address goes to no one who failed the check");
            assertFalse(pair.client.connector.mayFallBack(), "a netty-ucx server's failure is not a plain server");
            pair.client.runTasksDue(Long.MAX_VALUE);
        }

        Pair pair = upToTheServersAddress(false);
        pair.toClient();
        pair.flipToServer = UcxHandshake.INTRO_BYTES + UcxHandshake.CLIENT_HELLO_BYTES
                + UcxHandshake.ADDRESS_HEADER_BYTES + 9;
        ProtocolException refused = assertThrows(ProtocolException.class, pair::toServer);
        assertTrue(refused.getMessage().contains("altered on the way"), refused.getMessage());
        assertNull(pair.server.choice, "the server creates no endpoint either");
    }

    @Test
    void differentSecretsTakeTheTcpDataPathWithoutAnyWorkerAddress() throws IOException {
        Pair pair = new Pair(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(OTHER_SECRET));
        pair.handshake();
        assertEquals(UcxDataPathPolicy.Choice.TCP, pair.client.choice);
        assertEquals(UcxDataPathPolicy.Choice.TCP, pair.server.choice);
        assertNull(pair.server.endpoint, "the server created a native connection for the TCP data path");
        assertFalse(pair.client.sentAddress());
        assertFalse(pair.server.sentAddress());
        assertEquals("none", pair.client.connector.trustVerdict());
        assertEquals("none", pair.server.connector.trustVerdict());
    }

    @Test
    void oneSidedTrustIsNotEnoughForUcx() throws IOException {
        Pair pair = new Pair(UcxTrust.anyPeer(), UcxTrust.none());
        pair.handshake();
        assertEquals(UcxDataPathPolicy.Choice.TCP, pair.client.choice);
        assertFalse(pair.client.sentAddress());
        assertFalse(pair.server.sentAddress());
        assertEquals("this side only", pair.client.connector.trustVerdict());
        assertEquals("peer only", pair.server.connector.trustVerdict());
    }

    @Test
    void aClientThatSpeaksSomethingElseIsPlainTcpAndHearsNothing() throws IOException {
        FakeHost server = new FakeHost(config(UcxTrust.anyPeer()), true, 20);
        server.connector.acceptedRegistered();
        ByteBuffer request = ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        server.connector.session().input(request, 0);
        assertTrue(server.plain);
        assertEquals(0, server.sends);
        assertTrue(server.connector.session().isPlain());
    }

    @Test
    void anAcceptedPeerThatStopsHalfwayIsClosedAtTheDeadline() throws IOException {
        FakeHost server = new FakeHost(config(UcxTrust.anyPeer()), true, 20);
        // The handshake's own deadline: a connect timeout of 0 (none) does not make it unbounded.
        server.config.setConnectTimeoutMillis(0);
        server.config.setOption(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS, 5_000);
        server.connector.acceptedRegistered();
        server.connector.session().input(ByteBuffer.wrap(new byte[] {'N', 'U'}), 0);
        server.runTasksDue(4_999);
        assertFalse(server.closed, "closed before its deadline");
        server.runTasksDue(5_000);
        assertTrue(server.closed);
    }

    /** Two trusting sides with this client connect timeout, after their handshake chose UCX (else skipped). */
    private Pair handshakeOverUcx(int connectTimeoutMillis) throws IOException {
        Pair pair = new Pair(UcxTrust.sharedSecret(SECRET), UcxTrust.sharedSecret(SECRET));
        pair.client.config.setConnectTimeoutMillis(connectTimeoutMillis);
        pair.handshake();
        assumeTrue(pair.client.choice == UcxDataPathPolicy.Choice.UCX, "UCX was not chosen: no endpoint to wait for");
        return pair;
    }

    @Test
    void anEndpointThatNeverComesUpFailsTheConnectionAtItsDeadline() throws IOException {
        Pair pair = handshakeOverUcx(1_000);
        pair.client.runTasksDue(UcxConnector.MIN_ENDPOINT_SETUP_MILLIS - 1);
        assertNull(pair.client.aborted, "the deadline is never below its minimum");
        pair.client.runTasksDue(UcxConnector.MIN_ENDPOINT_SETUP_MILLIS);
        assertNotNull(pair.client.aborted);
        assertTrue(pair.client.aborted.getMessage().contains("did not come up"), pair.client.aborted.getMessage());

        pair.server.endpoint.wiredUp = true;
        pair.server.runTasksDue(Long.MAX_VALUE);
        assertNull(pair.server.aborted, "an endpoint that came up is left alone");
    }

    @Test
    void theEndpointCheckLeavesTheScheduleOnceTheEndpointIsUp() throws IOException {
        Pair pair = handshakeOverUcx(30_000);
        pair.client.runTasksDue(UcxConnector.ENDPOINT_CHECK_MILLIS);
        assertEquals(1, pair.client.tasksPending(), "the endpoint is looked at again while it wires up");
        pair.client.endpoint.wiredUp = true;
        pair.client.runTasksDue(2 * UcxConnector.ENDPOINT_CHECK_MILLIS);
        // A scheduled task has the loop read the clock in each of its turns: a round trip's spin included.
        assertEquals(0, pair.client.tasksPending(), "the endpoint check stays scheduled after the endpoint came up");
        assertNull(pair.client.aborted);
    }

    @Test
    void theSilentClientCheckLeavesTheScheduleOnceTheHandshakeIsDone() throws IOException {
        Pair pair = handshakeOverUcx(30_000);
        long wait = pair.server.config.clientBytesWaitMillis();
        List<Future<?>> checks = new ArrayList<>();
        for (int i = 0; i < pair.server.tasks.size(); i++) {
            if (pair.server.taskTimes.get(i)[0] == wait) {
                checks.add(pair.server.futures.get(i));
            }
        }
        assertEquals(1, checks.size(), "no look at a silent client scheduled");
        assertFalse(checks.get(0).isDone());
        pair.server.connector.opened(DataPath.UCX, null, null);
        assertTrue(checks.get(0).isDone(), "the look at a silent client stays scheduled after the handshake");
    }

    @Test
    void theEndpointCheckGoesWithTheChannel() throws IOException {
        Pair pair = handshakeOverUcx(30_000);
        long pending = pair.client.futures.stream().filter(f -> !f.isDone()).count();
        assertTrue(pending > 0, "no endpoint check scheduled");
        pair.client.connector.closed(null, null);
        // A scheduled task would keep an auto-scaling group from suspending the loop for the connect timeout.
        assertTrue(pair.client.futures.stream().filter(f -> !f.isDone()).count() < pending,
                "the endpoint check stays scheduled after the close");
    }

    @Test
    void ourOwnIntroSentBackIsRefused() throws IOException {
        FakeHost client = new FakeHost(config(UcxTrust.anyPeer()), false, 10);
        client.connector.tcpConnected();
        ByteBuffer reflected = ByteBuffer.wrap(client.out.toByteArray());
        assertThrows(ProtocolException.class, () -> client.connector.session().input(reflected, 0));
        assertNull(client.endpoint);
    }

    private static void assertArrayEquals(byte[] expected, byte[] actual) {
        assertTrue(Arrays.equals(expected, actual), "byte arrays differ");
    }

    /** A client's and a server's connector, whose bytes the test carries from one to the other. */
    private final class Pair {
        final FakeHost client;
        final FakeHost server;
        private final ByteBuffer toServer = ByteBuffer.allocate(4096);
        private final ByteBuffer toClient = ByteBuffer.allocate(4096);
        private int toServerTaken;
        private int toClientTaken;
        /** A byte of the server's stream that the man in the middle flips on its way to the client; -1: none. */
        int flipToClient = -1;
        /** The same for the client's stream on its way to the server. */
        int flipToServer = -1;

        Pair(UcxTrust clientTrust, UcxTrust serverTrust) {
            client = new FakeHost(config(clientTrust), false, 10);
            server = new FakeHost(config(serverTrust), true, 20);
            server.connector.acceptedRegistered();
        }

        void handshake() throws IOException {
            client.connector.tcpConnected();
            for (int i = 0; i < 4; i++) {
                toServer();
                toClient();
            }
        }

        void toServer() throws IOException {
            toServerTaken = carry(client, toServerTaken, toServer, server, flipToServer, Integer.MAX_VALUE);
        }

        void toClient() throws IOException {
            toClient(Integer.MAX_VALUE);
        }

        /** Carries the server's stream up to byte {@code end}. */
        void toClient(int end) throws IOException {
            toClientTaken = carry(server, toClientTaken, toClient, client, flipToClient, end);
        }

        private int carry(FakeHost from, int taken, ByteBuffer wire, FakeHost to, int flip, int end)
                throws IOException {
            byte[] sent = from.out.toByteArray();
            byte[] all = Arrays.copyOf(sent, Math.min(end, sent.length));
            if (flip >= taken && flip < all.length) {
                all[flip] ^= 1;
            }
            wire.put(all, taken, all.length - taken);
            wire.flip();
            try {
                to.connector.session().input(wire, 0);
            } finally {
                wire.compact();
            }
            return all.length;
        }
    }

    /** A channel as the connector sees it: what it sent, what it chose, what it scheduled. */
    private static final class FakeHost implements UcxConnector.Host {
        final UcxSocketChannelConfig config;
        final UcxConnector connector;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final byte[] address;
        final int id;
        /** Each task's time (ms after the start) and whether it ran. */
        final List<long[]> taskTimes = new ArrayList<>();
        /** The time of the task running, or of the last one that ran. */
        long now;
        final List<Runnable> tasks = new ArrayList<>();
        final List<Future<?>> futures = new ArrayList<>();
        int sends;
        FakeEndpoint endpoint;
        UcxDataPathPolicy.Choice choice;
        UcxHandshake.Hello peer;
        boolean plain;
        boolean closed;
        IOException aborted;
        final UcxWorkerKey ownerKey = new UcxWorkerKey();

        FakeHost(UcxSocketChannelConfig config, boolean accepted, int id) {
            this.config = config;
            this.id = id;
            address = new byte[64];
            // The first byte (the format version) is the same for both sides; the rest marks whose address it is.
            Arrays.fill(address, 1, address.length, (byte) (0xA0 + id));
            connector = new UcxConnector(this, config.handshakeSettings(), accepted, null);
        }

        ByteBuffer sent() {
            return sends == 0 ? null : ByteBuffer.wrap(out.toByteArray());
        }

        boolean sentAddress() {
            byte[] all = out.toByteArray();
            for (int i = 0; i + address.length <= all.length; i++) {
                if (Arrays.equals(all, i, i + address.length, address, 0, address.length)) {
                    return true;
                }
            }
            return false;
        }

        int tasksPending() {
            return (int) taskTimes.stream().filter(time -> time[1] == 0).count();
        }

        /** Runs the tasks due by {@code millis} after the start, in their order, tasks they schedule included. */
        void runTasksDue(long millis) {
            while (true) {
                int next = -1;
                for (int i = 0; i < tasks.size(); i++) {
                    long[] time = taskTimes.get(i);
                    if (time[1] == 0 && time[0] <= millis && (next < 0 || time[0] < taskTimes.get(next)[0])) {
                        next = i;
                    }
                }
                if (next < 0) {
                    return;
                }
                taskTimes.get(next)[1] = 1;
                now = taskTimes.get(next)[0];
                tasks.get(next).run();
            }
        }

        @Override
        public UcxWorkerKey ownerKey() {
            return ownerKey;
        }

        @Override
        public void send(ByteBuffer bytes) {
            sends++;
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            out.write(copy, 0, copy.length);
        }

        @Override
        public void flush() {
        }

        @Override
        public void expectAddress() {
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return STRANGER;
        }

        @Override
        public int peerUid() {
            return -1;
        }

        @Override
        public void keepAlive() {
        }

        @Override
        public UcxConnector.Endpoint newEndpoint() {
            assertNull(endpoint, "one connection per handshake");
            endpoint = new FakeEndpoint(id);
            return new UcxConnector.Endpoint(id, 0x1234_5678L + id, 0x6B65_7900 + id, 8, 65536);
        }

        @Override
        public boolean endpointWiringUp() {
            return endpoint != null && endpoint.connected && !endpoint.wiredUp;
        }

        @Override
        public byte[] workerAddress() {
            return address.clone();
        }

        @Override
        public void connectDataPath(UcxDataPathPolicy.Choice chosen, UcxHandshake.Hello hello) {
            assertNull(choice, "one data path per handshake");
            choice = chosen;
            peer = hello;
            if (chosen == UcxDataPathPolicy.Choice.UCX) {
                endpoint.connected = true;
            }
        }

        @Override
        public void startPlain() {
            plain = true;
        }

        @Override
        public Future<?> schedule(Runnable task, long millis) {
            tasks.add(task);
            taskTimes.add(new long[] {now + millis, 0});
            Future<?> future = ImmediateEventExecutor.INSTANCE.newPromise();
            futures.add(future);
            return future;
        }

        @Override
        public boolean isOpen() {
            return !closed;
        }

        @Override
        public boolean isActive() {
            return false;
        }

        @Override
        public void abort(IOException cause) {
            aborted = cause;
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public void fallBack(String why) {
            throw new AssertionError("no fallback in these tests: " + why);
        }

        @Override
        public void clientSilent() {
        }
    }

    /** The state of the fake native connection that the endpoint checks read. */
    private static final class FakeEndpoint {
        final int id;
        boolean connected;
        boolean wiredUp;

        FakeEndpoint(int id) {
            this.id = id;
        }
    }
}
