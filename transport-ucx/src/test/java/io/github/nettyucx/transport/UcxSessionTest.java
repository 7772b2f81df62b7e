/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.transport.UcxSession.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives {@link UcxSession} through every state and event without the native library: hellos and records
 * whole, split into single bytes, truncated and malformed, and a peer lost in each state.
 */
class UcxSessionTest {
    private static final byte[] WORKER_ADDRESS = {3, 1, 4, 1, 5, 9, 2, 6};

    /** Records the hellos the session hands over and what accepted clients turned out to be; can refuse hellos. */
    private static final class Listener implements UcxSession.Listener {
        final List<UcxHandshake.Hello> hellos = new ArrayList<>();
        final List<String> clients = new ArrayList<>();
        IOException refusal;

        @Override
        public void ucxClient() {
            clients.add("ucx");
        }

        @Override
        public void plainClient(ByteBuffer firstBytes) {
            clients.add("plain");
        }

        @Override
        public void helloReceived(UcxHandshake.Hello hello) throws IOException {
            if (refusal != null) {
                throw refusal;
            }
            hellos.add(hello);
        }
    }

    /** Side-channel input as the channel keeps it: bytes appended, parsed, the unparsed rest kept. */
    private static final class Input {
        private final ByteBuffer buffer = ByteBuffer.allocate(UcxHandshake.helloCapacity());

        boolean feed(UcxSession session, ByteBuffer bytes, int messagesReceived) throws IOException {
            buffer.put(bytes);
            buffer.flip();
            try {
                return session.input(buffer, messagesReceived);
            } finally {
                buffer.compact();
            }
        }

        int unparsed() {
            return buffer.position();
        }
    }

    private final Listener listener = new Listener();
    private final Input input = new Input();

    private static ByteBuffer hello() {
        return UcxHandshake.encodeHello(0, 42, 8, 65536, WORKER_ADDRESS);
    }

    private static ByteBuffer ascii(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static ByteBuffer record(byte type, int messages) {
        return UcxHandshake.encodeRecord(type, messages);
    }

    private static ByteBuffer concat(ByteBuffer... parts) {
        int length = 0;
        for (ByteBuffer part : parts) {
            length += part.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(length);
        for (ByteBuffer part : parts) {
            all.put(part);
        }
        return all.flip();
    }

    /** A session brought into {@code state} through the events that lead there. */
    private UcxSession sessionIn(State state) throws IOException {
        if (state == State.AWAITING_CLIENT || state == State.PLAIN) {
            UcxSession accepted = UcxSession.accepted(listener);
            if (state == State.PLAIN) {
                input.feed(accepted, ascii("GET / HTTP/1.1\r\n"), 0);
            }
            assertEquals(state, accepted.state());
            return accepted;
        }
        UcxSession session = new UcxSession(listener, state != State.CONNECTING);
        switch (state) {
            case CONNECTING:
            case AWAITING_HELLO:
                break;
            case OPEN:
                input.feed(session, hello(), 0);
                break;
            case PEER_OUTPUT_SHUT:
                input.feed(session, concat(hello(), record(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 3)), 0);
                break;
            case PEER_CLOSED:
                input.feed(session, concat(hello(), record(UcxHandshake.RECORD_CLOSE, 3)), 0);
                break;
            case GONE:
                input.feed(session, hello(), 0);
                session.peerLost();
                break;
            case CLOSED:
                input.feed(session, hello(), 0);
                session.closed();
                break;
            default:
                throw new AssertionError(state);
        }
        assertEquals(state, session.state());
        return session;
    }

    @Test
    void aClientConnectsThenAwaitsTheHello() {
        UcxSession session = new UcxSession(listener, false);
        assertEquals(State.CONNECTING, session.state());
        assertFalse(session.isTcpConnected());
        session.tcpConnected();
        assertEquals(State.AWAITING_HELLO, session.state());
        assertTrue(session.isTcpConnected());
        assertThrows(IllegalStateException.class, session::tcpConnected);
    }

    @Test
    void anAcceptedSessionAwaitsTheHelloAtOnce() {
        UcxSession session = new UcxSession(listener, true);
        assertEquals(State.AWAITING_HELLO, session.state());
        assertFalse(session.isEstablished());
        assertNull(session.peer());
    }

    @Test
    void anAcceptedSessionAwaitsItsClientsFirstBytes() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        assertEquals(State.AWAITING_CLIENT, session.state());
        assertTrue(session.isTcpConnected());
        assertFalse(input.feed(session, ByteBuffer.allocate(0), 0));
        assertEquals(State.AWAITING_CLIENT, session.state());
        assertTrue(listener.clients.isEmpty());
        assertFalse(session.canAnnounceShutdown(), "no record before our hello");
    }

    @Test
    void aUcxClientIsKnownByTheMagicEvenOneByteAtATime() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        ByteBuffer hello = hello();
        int helloBytes = hello.remaining();
        for (int i = 0; i < helloBytes; i++) {
            input.feed(session, ByteBuffer.wrap(new byte[] {hello.get(i)}), 0);
            int fed = i + 1;
            assertEquals(fed < Integer.BYTES ? List.of() : List.of("ucx"), listener.clients, "after " + fed);
            State expected = fed < Integer.BYTES ? State.AWAITING_CLIENT
                    : fed < helloBytes ? State.AWAITING_HELLO : State.OPEN;
            assertEquals(expected, session.state(), "after " + fed + " bytes");
        }
        assertEquals(1, listener.hellos.size());
        assertEquals(0, input.unparsed());
    }

    @Test
    void aPlainClientKeepsEveryByteForThePipeline() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        assertFalse(input.feed(session, ascii("GET / HTTP/1.1\r\n"), 0));
        assertEquals(State.PLAIN, session.state());
        assertEquals(List.of("plain"), listener.clients);
        assertEquals("GET / HTTP/1.1\r\n".length(), input.unparsed(), "the client's bytes stay unconsumed");
        assertTrue(session.isEstablished(), "a plain connection is up at once");
        assertTrue(session.isPlain());
        assertTrue(listener.hellos.isEmpty());
        assertTrue(session.canAnnounceShutdown(), "its shutdown is the socket's");
        assertFalse(session.peerWillNotRead());
        assertFalse(session.closeForcibly());
        assertTrue(session.closed(), "its close goes to the socket");
    }

    @Test
    void aSilentClientIsTakenForPlainTcp() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        session.clientSilent();
        assertEquals(State.PLAIN, session.state());
        assertEquals(List.of("plain"), listener.clients);
        assertTrue(session.isEstablished());
        assertThrows(IllegalStateException.class, session::clientSilent, "only while nothing is known");
    }

    @Test
    void aClientThatSpokeIsNotSilent() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        input.feed(session, hello(), 0);
        assertThrows(IllegalStateException.class, session::clientSilent);
        assertEquals(State.OPEN, session.state());
    }

    @Test
    void aPrefixOfTheMagicThenOtherBytesIsAPlainClient() throws IOException {
        ByteBuffer hello = hello();
        for (int prefix = 1; prefix < Integer.BYTES; prefix++) {
            listener.clients.clear();
            Input fresh = new Input();
            UcxSession session = UcxSession.accepted(listener);
            byte[] start = new byte[prefix];
            hello.get(0, start);
            fresh.feed(session, ByteBuffer.wrap(start), 0);
            assertEquals(State.AWAITING_CLIENT, session.state(), "after " + prefix + " bytes of the magic");
            fresh.feed(session, ascii("?"), 0);
            assertEquals(State.PLAIN, session.state());
            assertEquals(List.of("plain"), listener.clients);
            assertEquals(prefix + 1, fresh.unparsed(), "every byte is kept");
        }
    }

    @Test
    void aTlsClientHelloIsAPlainClient() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        input.feed(session, ByteBuffer.wrap(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00}), 0);
        assertEquals(State.PLAIN, session.state());
    }

    @Test
    void aUcxClientOfAnotherVersionIsRefusedAfterOurHello() {
        UcxSession session = UcxSession.accepted(listener);
        ByteBuffer bad = hello();
        bad.putShort(4, (short) (UcxHandshake.VERSION - 1));
        ProtocolException e = assertThrows(ProtocolException.class, () -> input.feed(session, bad, 0));
        assertTrue(e.getMessage().contains("unsupported netty-ucx protocol version"), e.getMessage());
        assertEquals(List.of("ucx"), listener.clients, "our hello went out: the client learns our version too");
        assertEquals(State.GONE, session.state());
    }

    @Test
    void theHelloOpensTheSessionAndReachesTheListenerOnce() throws IOException {
        UcxSession session = new UcxSession(listener, true);
        assertFalse(input.feed(session, hello(), 0));
        assertEquals(State.OPEN, session.state());
        assertTrue(session.isEstablished());
        assertEquals(1, listener.hellos.size());
        UcxHandshake.Hello peer = listener.hellos.get(0);
        assertSame(peer, session.peer());
        assertEquals(42, peer.connectionId);
        assertEquals(8, peer.recvWindow);
        assertEquals(65536, peer.recvUnit);
        assertArrayEquals(WORKER_ADDRESS, peer.workerAddress);
        assertTrue(peer.sameHost(), "a hello from this process has this host's boot id");
        assertEquals(0, input.unparsed());
    }

    @Test
    void aHelloAndRecordsFedOneByteAtATime() throws IOException {
        UcxSession session = new UcxSession(listener, true);
        ByteBuffer all = concat(hello(), record(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 5),
                record(UcxHandshake.RECORD_CLOSE, 5));
        int helloBytes = hello().remaining();
        int ends = 0;
        for (int i = 0; i < all.limit(); i++) {
            boolean ended = input.feed(session, ByteBuffer.wrap(new byte[] {all.get(i)}), 0);
            int fed = i + 1;
            assertEquals(fed < helloBytes ? 0 : 1, listener.hellos.size(), "hellos after " + fed + " bytes");
            if (fed < helloBytes) {
                assertEquals(State.AWAITING_HELLO, session.state());
            } else if (fed < helloBytes + UcxHandshake.RECORD_BYTES) {
                assertEquals(State.OPEN, session.state());
            } else if (fed < helloBytes + 2 * UcxHandshake.RECORD_BYTES) {
                assertEquals(State.PEER_OUTPUT_SHUT, session.state());
            } else {
                assertEquals(State.PEER_CLOSED, session.state());
            }
            if (ended) {
                ends++;
                assertEquals(0, (fed - helloBytes) % UcxHandshake.RECORD_BYTES, "an end before a whole record");
            }
        }
        assertEquals(2, ends, "each record announces the end once");
        assertEquals(5, session.peerFinalSeq());
        assertEquals(0, input.unparsed());
    }

    @Test
    void aTruncatedHelloFollowedByTheEndIsAResetDuringTheHandshake() throws IOException {
        UcxSession session = new UcxSession(listener, true);
        ByteBuffer truncated = hello();
        truncated.limit(truncated.limit() - 1);
        input.feed(session, truncated, 0);
        assertEquals(State.AWAITING_HELLO, session.state());
        assertTrue(listener.hellos.isEmpty());
        IOException cause = session.sideChannelEnded(null);
        assertNotNull(cause);
        assertTrue(cause.getMessage().contains("during the UCX handshake"), cause.getMessage());
        assertFalse(session.peerLost(), "a peer that never said hello was not there");
        assertEquals(State.GONE, session.state());
        assertTrue(session.closeForcibly());
        assertFalse(session.closed(), "no close record for a peer that never said hello");
    }

    @Test
    void aHelloWithABadMagicIsRefused() {
        ByteBuffer bad = hello();
        bad.putInt(0, 0x47455420); // "GET ": an HTTP client
        assertRefused(bad, "not a netty-ucx peer");
    }

    @Test
    void aHelloOfAnotherVersionIsRefused() {
        ByteBuffer bad = hello();
        bad.putShort(4, (short) (UcxHandshake.VERSION + 1));
        assertRefused(bad, "unsupported netty-ucx protocol version");
    }

    @Test
    void aHelloWithABadAddressLengthIsRefused() {
        for (int length : new int[] {0, -1, UcxHandshake.MAX_WORKER_ADDRESS + 1}) {
            ByteBuffer bad = hello();
            bad.putInt(UcxHandshake.HELLO_HEADER_BYTES - 4, length);
            assertRefused(bad, "bad worker address length");
        }
    }

    @Test
    void aHelloWithAnEmptyWindowIsRefused() {
        ByteBuffer bad = UcxHandshake.encodeHello(0, 42, 0, 65536, WORKER_ADDRESS);
        assertRefused(bad, "bad receive window");
    }

    /** A bad magic is refused from its first 8 bytes, before the rest of the hello could arrive. */
    @Test
    void aBadMagicIsRefusedWithoutWaitingForTheWholeHello() {
        ByteBuffer bad = hello();
        bad.putInt(0, 0x16030100); // a TLS client hello
        bad.limit(8);
        assertRefused(bad, "not a netty-ucx peer");
    }

    private void assertRefused(ByteBuffer hello, String message) {
        UcxSession session = new UcxSession(listener, true);
        ProtocolException e = assertThrows(ProtocolException.class, () -> input.feed(session, hello, 0));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(State.GONE, session.state());
        assertTrue(listener.hellos.isEmpty());
        assertNull(session.peer());
        assertTrue(session.closeForcibly());
    }

    @Test
    void aHelloTheListenerRefusesLeavesThePeerGone() {
        listener.refusal = new ProtocolException("peer's UCX worker address has format version 9");
        UcxSession session = new UcxSession(listener, true);
        assertThrows(ProtocolException.class, () -> input.feed(session, hello(), 0));
        assertEquals(State.GONE, session.state());
        assertFalse(session.isEstablished());
        assertTrue(session.closeForcibly());
    }

    @Test
    void anUnknownRecordIsAProtocolViolation() throws IOException {
        UcxSession session = sessionIn(State.OPEN);
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> input.feed(session, record((byte) 'X', 0), 0));
        assertTrue(e.getMessage().contains("unknown side-channel record type"), e.getMessage());
        assertEquals(State.GONE, session.state());
    }

    @Test
    void aRecordClaimingFewerMessagesThanArrivedIsAProtocolViolation() throws IOException {
        UcxSession session = sessionIn(State.OPEN);
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> input.feed(session, record(UcxHandshake.RECORD_CLOSE, 2), 3));
        assertTrue(e.getMessage().contains("claims 2 messages but 3 arrived"), e.getMessage());
        assertEquals(State.GONE, session.state());
    }

    @Test
    void theEndOfInputIsReachedWhenTheAnnouncedMessagesAreRead() throws IOException {
        UcxSession session = sessionIn(State.OPEN);
        assertFalse(session.atEndOfInput(0), "no end announced yet");
        assertTrue(input.feed(session, record(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 2), 1));
        assertTrue(session.peerMessagesInFlight(1));
        assertFalse(session.atEndOfInput(1));
        assertFalse(session.peerMessagesInFlight(2));
        assertTrue(session.atEndOfInput(2));
        assertFalse(session.peerWillNotRead(), "a peer that only shut its output down still reads");
        assertTrue(session.canAnnounceShutdown());
    }

    /** Message counts are u32 on the wire and wrap around in Java's int past 2^31. */
    @Test
    void messageCountsPast2To31() throws IOException {
        UcxSession session = sessionIn(State.OPEN);
        int beyond = Integer.MIN_VALUE + 2; // 2^31 + 2
        assertTrue(input.feed(session, record(UcxHandshake.RECORD_CLOSE, beyond), Integer.MAX_VALUE));
        assertTrue(session.peerMessagesInFlight(Integer.MAX_VALUE));
        assertFalse(session.atEndOfInput(Integer.MIN_VALUE + 1));
        assertTrue(session.atEndOfInput(beyond));
        assertFalse(session.peerMessagesInFlight(beyond));

        UcxSession other = sessionIn(State.OPEN);
        assertThrows(ProtocolException.class,
                () -> input.feed(other, record(UcxHandshake.RECORD_CLOSE, Integer.MAX_VALUE), Integer.MIN_VALUE + 1),
                "a record claiming 2^31 - 1 messages when 2^31 + 1 arrived");
    }

    @Test
    void aResetRecordClosesThePeerAsAReset() throws IOException {
        UcxSession session = sessionIn(State.OPEN);
        assertFalse(session.peerReset());
        assertTrue(input.feed(session, record(UcxHandshake.RECORD_RESET, 4), 1));
        assertEquals(State.PEER_CLOSED, session.state());
        assertTrue(session.peerReset());
        assertTrue(session.peerClosedInOrder(), "its messages before the reset are still delivered");
        assertTrue(session.peerMessagesInFlight(1));
        assertNull(session.sideChannelEnded(null), "the side channel's end after a reset record is expected");
    }

    @Test
    void aShutdownAfterTheCloseRecordLeavesThePeerClosed() throws IOException {
        UcxSession session = sessionIn(State.PEER_CLOSED);
        input.feed(session, record(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 3), 0);
        assertEquals(State.PEER_CLOSED, session.state());
        assertTrue(session.peerClosedInOrder());
    }

    @Test
    void theSideChannelsEndAfterACloseRecordIsOrderly() throws IOException {
        UcxSession session = sessionIn(State.PEER_CLOSED);
        assertNull(session.sideChannelEnded(null));
        assertEquals(State.PEER_CLOSED, session.state());
        assertTrue(session.isSideChannelEnded());
        assertFalse(session.canAnnounceShutdown());
        assertFalse(session.closed(), "no close record on a side channel that ended");
    }

    @Test
    void theSideChannelsEndWithoutACloseRecordIsAReset() throws IOException {
        for (State state : new State[] {State.OPEN, State.PEER_OUTPUT_SHUT}) {
            UcxSession session = sessionIn(state);
            IOException cause = session.sideChannelEnded(null);
            assertNotNull(cause, state.name());
            assertTrue(cause.getMessage().contains("without a close record"), cause.getMessage());
            assertTrue(session.peerLost(), "the peer was there until its side channel ended in " + state);
            assertEquals(State.GONE, session.state());
        }
    }

    @Test
    void aSocketErrorNamesTheLostConnection() throws IOException {
        UcxSession session = sessionIn(State.OPEN);
        IOException cause = session.sideChannelEnded("Connection timed out");
        assertNotNull(cause);
        assertTrue(cause.getMessage().startsWith("Connection lost: Connection timed out"), cause.getMessage());
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void aPeerLostInEachState(State state) throws IOException {
        UcxSession session = sessionIn(state);
        boolean wasThere = session.peerLost();
        assertEquals(state == State.OPEN || state == State.PEER_OUTPUT_SHUT || state == State.PLAIN, wasThere,
                "whether the peer counted as there in " + state);
        assertEquals(state == State.CLOSED ? State.CLOSED : State.GONE, session.state());
        assertTrue(session.peerWillNotRead());
        assertFalse(session.peerClosedInOrder());
        assertFalse(session.closed(), "a close record to a lost peer");
        assertEquals(State.CLOSED, session.state());
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void inputAfterTheEndIsIgnored(State state) throws IOException {
        if (state != State.GONE && state != State.CLOSED && state != State.CONNECTING) {
            return;
        }
        UcxSession session = sessionIn(state);
        int hellos = listener.hellos.size();
        assertFalse(input.feed(session, concat(hello(), record(UcxHandshake.RECORD_CLOSE, 0)), 0));
        assertEquals(state, session.state());
        assertEquals(hellos, listener.hellos.size());
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void closingInEachState(State state) throws IOException {
        UcxSession session = sessionIn(state);
        boolean forcibly = session.closeForcibly();
        boolean announce = session.closed();
        boolean established = state != State.CONNECTING && state != State.AWAITING_HELLO
                && state != State.AWAITING_CLIENT;
        boolean peerThere = state == State.OPEN || state == State.PEER_OUTPUT_SHUT || state == State.PEER_CLOSED
                || state == State.PLAIN;
        assertEquals(established && peerThere, announce, "close record in " + state);
        assertEquals(!established || state == State.GONE, forcibly, "forced close in " + state);
        assertEquals(State.CLOSED, session.state());
        assertTrue(session.peerWillNotRead());
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void whoCanBeToldOfAShutdown(State state) throws IOException {
        UcxSession session = sessionIn(state);
        boolean expected = state == State.AWAITING_HELLO || state == State.OPEN || state == State.PEER_OUTPUT_SHUT
                || state == State.GONE || state == State.PLAIN;
        assertEquals(expected, session.canAnnounceShutdown(), state.name());
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void whoWillReadOurWrites(State state) throws IOException {
        UcxSession session = sessionIn(state);
        boolean expected = state == State.PEER_CLOSED || state == State.GONE || state == State.CLOSED;
        assertEquals(expected, session.peerWillNotRead(), state.name());
        assertEquals(state == State.PEER_CLOSED, session.peerClosedInOrder(), state.name());
    }

    @Test
    void aCloseRecordStillCountsAfterThePeerIsLost() throws IOException {
        UcxSession session = sessionIn(State.PEER_CLOSED);
        assertFalse(session.peerLost());
        assertEquals(State.GONE, session.state());
        assertNull(session.sideChannelEnded(null), "the peer had closed in order before it was lost");
        assertFalse(session.canAnnounceShutdown());
    }
}
