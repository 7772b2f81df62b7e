/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.handshake.UcxSession.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives {@link UcxSession} through every state and event of protocol 7 without the native library, as a client
 * (which receives the server's intro, hello and address) and as an accepted session (which receives the client's):
 * intros, hellos, addresses and records whole, split into single bytes, truncated and malformed, the limits of each
 * field, an intro sent back to us, the record rules, and a peer lost in each state.
 */
class UcxSessionTest {
    private static final byte[] WORKER_ADDRESS = {3, 1, 4, 1, 5, 9, 2, 6};
    private static final byte[] OWN_NONCE = filled(UcxHandshake.NONCE_BYTES, 0x3C);
    private static final byte[] PEER_NONCE = filled(UcxHandshake.NONCE_BYTES, 0x5A);
    private static final byte[] PROOF = filled(UcxHandshake.PROOF_BYTES, 0x77);
    /** The host proof the test's listener expects: a hello that carries it is from this host. */
    private static final byte[] HOST_PROOF = filled(16, 0x5A);
    private static final byte[] OWNER_KEY = filled(32, 0x4B);
    private static final int ID = 42;
    private static final long TAG_SECRET = 0xABCDEF123456L;
    private static final int MESSAGE_KEY = 0x5EC2E7;
    private static final int WINDOW = 8;
    private static final int UNIT = 65536;

    /** Which end the session under test is: what it receives is the other end's. */
    enum Side {
        /** Receives a server's intro (with proof), its hello (no proof), its address. */
        CLIENT,
        /** Receives a client's intro (magic first), its hello (proof first), its address. */
        ACCEPTED
    }

    /**
     * Records, in order, what the session hands over; its hellos lead to UCX (an address next) unless told otherwise;
     * each event can be refused.
     */
    private static final class Listener implements UcxSession.Listener {
        final List<String> events = new ArrayList<>();
        final List<UcxHandshake.Intro> intros = new ArrayList<>();
        final List<UcxHandshake.Hello> hellos = new ArrayList<>();
        final List<UcxHandshake.Hello> addresses = new ArrayList<>();
        boolean ucx = true;
        IOException introRefusal;
        IOException helloRefusal;
        IOException addressRefusal;

        @Override
        public void plainClient(ByteBuffer firstBytes) {
            events.add("plain");
        }

        @Override
        public void introReceived(UcxHandshake.Intro intro) throws IOException {
            if (introRefusal != null) {
                throw introRefusal;
            }
            events.add("intro");
            intros.add(intro);
        }

        @Override
        public boolean helloReceived(UcxHandshake.Hello hello) throws IOException {
            if (helloRefusal != null) {
                throw helloRefusal;
            }
            events.add("hello");
            hellos.add(hello);
            return ucx;
        }

        @Override
        public byte[] expectedPeerHostProof() {
            return HOST_PROOF.clone();
        }

        @Override
        public void addressReceived(UcxHandshake.Hello hello) throws IOException {
            if (addressRefusal != null) {
                throw addressRefusal;
            }
            events.add("address");
            addresses.add(hello);
        }
    }

    /** Side-channel input as the channel keeps it: bytes appended, parsed, the unparsed rest kept. */
    private static final class Input {
        // Room for the largest worker address, as the channel makes once UCX is chosen, and what surrounds it.
        private final ByteBuffer buffer = ByteBuffer.allocate(UcxHandshake.addressCapacity() + 1024);

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

    private static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    /** A session of {@code side} whose TCP connection is made (and whose own nonce is set, as the channel does). */
    private UcxSession newSession(Side side) {
        UcxSession session = side == Side.CLIENT ? new UcxSession(listener, true) : UcxSession.accepted(listener);
        session.ownNonce(OWN_NONCE.clone());
        return session;
    }

    /** The intro the session of {@code side} receives, carrying {@code nonce}. */
    private static ByteBuffer peerIntro(Side side, byte[] nonce) {
        return side == Side.CLIENT ? UcxHandshake.encodeServerIntro(nonce, PROOF)
                : UcxHandshake.encodeClientIntro(nonce);
    }

    private static ByteBuffer peerIntro(Side side) {
        return peerIntro(side, PEER_NONCE);
    }

    /** The hello the session of {@code side} receives: a client's carries its proof first. */
    private static ByteBuffer peerHello(Side side, int flags, int id, int window, int unit) {
        return UcxHandshake.encodeHello(flags, id, TAG_SECRET, MESSAGE_KEY, window, unit, HOST_PROOF, OWNER_KEY,
                side == Side.ACCEPTED ? PROOF : null);
    }

    private static ByteBuffer peerHello(Side side) {
        return peerHello(side, 0, ID, WINDOW, UNIT);
    }

    private static ByteBuffer address() {
        return UcxHandshake.encodeAddress(WORKER_ADDRESS);
    }

    /** Intro, hello and address: a whole handshake towards UCX. */
    private static ByteBuffer handshake(Side side) {
        return concat(peerIntro(side), peerHello(side), address());
    }

    private static ByteBuffer ascii(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static ByteBuffer record(byte type, int messages) {
        return UcxHandshake.encodeRecord(type, messages);
    }

    private static ByteBuffer record(char type, int messages) {
        return record((byte) type, messages);
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

    private static ByteBuffer prefix(ByteBuffer bytes, int length) {
        ByteBuffer start = bytes.duplicate();
        start.limit(start.position() + length);
        return start;
    }

    /** The states a session of each side can be in (a client is never AWAITING_CLIENT; an accepted, CONNECTING). */
    static Stream<Arguments> sidesAndStates() {
        List<Arguments> all = new ArrayList<>();
        for (Side side : Side.values()) {
            for (State state : State.values()) {
                if (side == Side.CLIENT && state == State.AWAITING_CLIENT
                        || side == Side.ACCEPTED && state == State.CONNECTING) {
                    continue;
                }
                all.add(Arguments.of(side, state));
            }
        }
        return all.stream();
    }

    /** A session of {@code side} brought into {@code state} through the events that lead there. */
    private UcxSession sessionIn(Side side, State state) throws IOException {
        if (state == State.CONNECTING) {
            UcxSession connecting = new UcxSession(listener, false);
            assertEquals(state, connecting.state());
            return connecting;
        }
        UcxSession session = newSession(side);
        switch (state) {
            case AWAITING_CLIENT:
                break;
            case PLAIN:
                if (side == Side.CLIENT) {
                    session.plainServer();
                } else {
                    input.feed(session, ascii("GET / HTTP/1.1\r\n"), 0);
                }
                break;
            case AWAITING_INTRO:
                if (side == Side.ACCEPTED) {
                    input.feed(session, prefix(peerIntro(side), Integer.BYTES), 0);
                }
                break;
            case AWAITING_HELLO:
                input.feed(session, peerIntro(side), 0);
                break;
            case AWAITING_ADDRESS:
                input.feed(session, concat(peerIntro(side), peerHello(side)), 0);
                break;
            case OPEN:
                input.feed(session, handshake(side), 0);
                break;
            case PEER_OUTPUT_SHUT:
                input.feed(session, concat(handshake(side), record(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 3)), 0);
                break;
            case PEER_CLOSED:
                input.feed(session, concat(handshake(side), record(UcxHandshake.RECORD_CLOSE, 3)), 0);
                break;
            case GONE:
                input.feed(session, handshake(side), 0);
                session.peerLost();
                break;
            case CLOSED:
                input.feed(session, handshake(side), 0);
                session.closed();
                break;
            default:
                throw new AssertionError(state);
        }
        assertEquals(state, session.state(), side + " session");
        return session;
    }

    // ---- the wire ----

    /** The layouts of docs/protocol.md, checked byte by byte rather than through the decoders. */
    @Test
    void theMessagesOfProtocol8HaveTheirDocumentedLayout() throws ProtocolException {
        assertEquals(8, UcxHandshake.VERSION);
        byte[] keyIds = filled(16, 0x3C);
        ByteBuffer clientIntro = UcxHandshake.encodeClientIntro(PEER_NONCE, keyIds);
        assertEquals(40, clientIntro.remaining());
        assertEquals(0x4E554358, clientIntro.getInt(0));
        assertEquals(8, clientIntro.getShort(4));
        assertEquals(0, clientIntro.getShort(6), "flags");
        assertArrayEquals(PEER_NONCE, Arrays.copyOfRange(clientIntro.array(), 8, 24));
        assertArrayEquals(keyIds, Arrays.copyOfRange(clientIntro.array(), 24, 40), "the client's key ids last");
        assertArrayEquals(new byte[16], Arrays.copyOfRange(UcxHandshake.encodeClientIntro(PEER_NONCE).array(), 24,
                40), "no key: zero ids");
        assertArrayEquals(keyIds, UcxHandshake.decodeIntro(clientIntro.duplicate(), false, OWN_NONCE).keyIds);

        ByteBuffer serverIntro = UcxHandshake.encodeServerIntro(PEER_NONCE, PROOF);
        assertEquals(64, serverIntro.remaining());
        assertEquals(0x4E554358, serverIntro.getInt(0));
        assertEquals(8, serverIntro.getShort(4));
        assertArrayEquals(PEER_NONCE, Arrays.copyOfRange(serverIntro.array(), 8, 24));
        assertArrayEquals(PROOF, Arrays.copyOfRange(serverIntro.array(), 24, 64), "key id and HMAC, 40 bytes");

        byte[] clientHost = filled(16, 0x61);
        byte[] serverHost = filled(16, 0x62);
        byte[] clientOwner = filled(32, 0x71);
        byte[] serverOwner = filled(32, 0x72);
        ByteBuffer clientHello = UcxHandshake.encodeHello(0x1F, 7, 0x123456789ABCL, 0x77, 9, 4096, clientHost,
                clientOwner, PROOF);
        assertEquals(116, clientHello.remaining());
        assertArrayEquals(PROOF, Arrays.copyOfRange(clientHello.array(), 0, 40), "the proof first");
        assertEquals(0x1F, clientHello.getShort(40));
        assertEquals(0, clientHello.getShort(42));
        assertEquals(7, clientHello.getInt(44));
        assertEquals(0x123456789ABCL, clientHello.getLong(48));
        assertEquals(9, clientHello.getInt(56));
        assertEquals(4096, clientHello.getInt(60));
        assertEquals(0x77, clientHello.getInt(80), "the message key");
        assertArrayEquals(clientOwner, Arrays.copyOfRange(clientHello.array(), 84, 116), "the owner key last");

        assertArrayEquals(clientHost, Arrays.copyOfRange(clientHello.array(), 64, 80), "the host proof");
        ByteBuffer serverHello = UcxHandshake.encodeHello(0x10, 7, 0x42L, 0x78, 9, 4096, serverHost, serverOwner,
                null);
        assertEquals(76, serverHello.remaining());
        assertEquals(0x10, serverHello.getShort(0));
        assertEquals(7, serverHello.getInt(4));
        assertEquals(0x42L, serverHello.getLong(8));
        assertEquals(9, serverHello.getInt(16));
        assertEquals(4096, serverHello.getInt(20));
        assertEquals(0x78, serverHello.getInt(40));
        assertArrayEquals(serverHost, Arrays.copyOfRange(serverHello.array(), 24, 40), "the host proof");
        assertArrayEquals(serverOwner, Arrays.copyOfRange(serverHello.array(), 44, 76), "the owner key");
        UcxHandshake.Hello decoded = UcxHandshake.decodeHello(clientHello, true);
        assertEquals(0x123456789ABCL, decoded.tagSecret, "decoded tag secret");
        assertEquals(0x77, decoded.messageKey, "decoded message key");
        assertArrayEquals(clientOwner, decoded.ownerKey, "decoded owner key");

        byte[] mac = new byte[32];
        Arrays.fill(mac, (byte) 0x5A);
        byte[] ownership = filled(32, 0x6B);
        ByteBuffer address = UcxHandshake.encodeAddress(WORKER_ADDRESS, mac, ownership);
        assertEquals(4 + WORKER_ADDRESS.length + 64, address.remaining());
        assertEquals(WORKER_ADDRESS.length, address.getInt(0));
        assertArrayEquals(WORKER_ADDRESS, Arrays.copyOfRange(address.array(), 4, 4 + WORKER_ADDRESS.length));
        assertArrayEquals(mac, Arrays.copyOfRange(address.array(), 4 + WORKER_ADDRESS.length,
                4 + WORKER_ADDRESS.length + 32), "the MAC");
        assertArrayEquals(ownership, Arrays.copyOfRange(address.array(), 4 + WORKER_ADDRESS.length + 32,
                4 + WORKER_ADDRESS.length + 64), "the ownership MAC last");
        assertArrayEquals(Arrays.copyOfRange(serverHello.array(), 0, 76), UcxHandshake.helloBody(serverHello));
        assertArrayEquals(Arrays.copyOfRange(clientHello.array(), 40, 116), UcxHandshake.helloBody(clientHello),
                "a client's hello body is what follows its proof");
    }

    // ---- how sessions start ----

    @Test
    void aClientConnectsThenAwaitsTheServersIntro() {
        UcxSession session = new UcxSession(listener, false);
        assertEquals(State.CONNECTING, session.state());
        assertFalse(session.isTcpConnected());
        assertFalse(session.isHandshaking());
        session.tcpConnected();
        assertEquals(State.AWAITING_INTRO, session.state());
        assertTrue(session.isTcpConnected());
        assertTrue(session.isHandshaking());
        assertThrows(IllegalStateException.class, session::tcpConnected);
    }

    @Test
    void aConnectedClientAwaitsTheIntroAtOnce() {
        UcxSession session = new UcxSession(listener, true);
        assertEquals(State.AWAITING_INTRO, session.state());
        assertFalse(session.isEstablished());
        assertNull(session.peer());
    }

    @Test
    void anAcceptedSessionAwaitsItsClientsFirstBytes() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        assertEquals(State.AWAITING_CLIENT, session.state());
        assertTrue(session.isTcpConnected());
        assertTrue(session.isHandshaking());
        assertFalse(input.feed(session, ByteBuffer.allocate(0), 0));
        assertEquals(State.AWAITING_CLIENT, session.state());
        assertTrue(listener.events.isEmpty());
        assertFalse(session.canAnnounceShutdown(), "no record before anything was said");
    }

    @Test
    void aClientToAServerKnownToBePlainIsPlain() throws IOException {
        UcxSession session = newSession(Side.CLIENT);
        session.plainServer();
        assertEquals(State.PLAIN, session.state());
        assertTrue(session.isPlain());
        assertTrue(session.isEstablished());
        assertFalse(session.isHandshaking());
        assertThrows(IllegalStateException.class, session::plainServer);
        UcxSession helloSent = sessionIn(Side.CLIENT, State.AWAITING_HELLO);
        assertThrows(IllegalStateException.class, helloSent::plainServer, "only before the server's intro");
    }

    // ---- whole handshakes ----

    /** Every prefix of a handshake and two records: the state and what the listener was told after each byte. */
    @ParameterizedTest
    @EnumSource(Side.class)
    void aHandshakeAndRecordsFedOneByteAtATime(Side side) throws IOException {
        UcxSession session = newSession(side);
        ByteBuffer all = concat(handshake(side), record(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 5),
                record(UcxHandshake.RECORD_CLOSE, 5));
        int introEnd = peerIntro(side).remaining();
        int helloEnd = introEnd + peerHello(side).remaining();
        int addressEnd = helloEnd + address().remaining();
        assertEquals(side == Side.CLIENT ? 64 : 40, introEnd);
        assertEquals(side == Side.CLIENT ? UcxHandshake.HELLO_BYTES : UcxHandshake.CLIENT_HELLO_BYTES,
                helloEnd - introEnd);
        int ends = 0;
        for (int i = 0; i < all.limit(); i++) {
            boolean ended = input.feed(session, ByteBuffer.wrap(new byte[] {all.get(i)}), 0);
            int fed = i + 1;
            State expected;
            if (side == Side.ACCEPTED && fed < Integer.BYTES) {
                expected = State.AWAITING_CLIENT;
            } else if (fed < introEnd) {
                expected = State.AWAITING_INTRO;
            } else if (fed < helloEnd) {
                expected = State.AWAITING_HELLO;
            } else if (fed < addressEnd) {
                expected = State.AWAITING_ADDRESS;
            } else if (fed < addressEnd + UcxHandshake.RECORD_BYTES) {
                expected = State.OPEN;
            } else if (fed < addressEnd + 2 * UcxHandshake.RECORD_BYTES) {
                expected = State.PEER_OUTPUT_SHUT;
            } else {
                expected = State.PEER_CLOSED;
            }
            assertEquals(expected, session.state(), "after " + fed + " bytes");
            List<String> told = List.of("intro", "hello", "address");
            int events = fed < introEnd ? 0 : fed < helloEnd ? 1 : fed < addressEnd ? 2 : 3;
            assertEquals(told.subList(0, events), listener.events, "after " + fed + " bytes");
            assertEquals(fed >= addressEnd, session.isEstablished(), "after " + fed + " bytes");
            if (ended) {
                ends++;
                assertTrue(fed > addressEnd && (fed - addressEnd) % UcxHandshake.RECORD_BYTES == 0,
                        "an end announced at " + fed + " bytes, not after a whole record");
            }
        }
        assertEquals(2, ends, "each record announces the end once");
        assertEquals(5, session.peerFinalSeq());
        assertEquals(0, input.unparsed());
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void aHandshakeReachesTheListenerInOrderWithWhatThePeerSent(Side side) throws IOException {
        UcxSession session = newSession(side);
        assertFalse(input.feed(session, handshake(side), 0));
        assertEquals(State.OPEN, session.state());
        assertEquals(List.of("intro", "hello", "address"), listener.events);
        assertEquals(0, input.unparsed());

        UcxHandshake.Intro intro = listener.intros.get(0);
        assertArrayEquals(PEER_NONCE, intro.nonce);
        if (side == Side.CLIENT) {
            assertArrayEquals(PROOF, intro.proof, "a server's intro carries its proof");
        } else {
            assertNull(intro.proof, "a client's intro carries no proof");
        }

        UcxHandshake.Hello hello = listener.hellos.get(0);
        assertNull(hello.workerAddress, "the hello is told before any address arrived");
        if (side == Side.ACCEPTED) {
            assertArrayEquals(PROOF, hello.proof, "a client's hello carries its proof");
        } else {
            assertNull(hello.proof, "a server's hello carries no proof");
        }

        UcxHandshake.Hello peer = listener.addresses.get(0);
        assertArrayEquals(WORKER_ADDRESS, peer.workerAddress);
        assertEquals(peer.connectionId, session.peer().connectionId);
        assertEquals(peer.recvWindow, session.peer().recvWindow);
        assertNull(session.peer().workerAddress, "the session keeps no worker address once it was used");
        assertEquals(ID, peer.connectionId);
        assertEquals(WINDOW, peer.recvWindow);
        assertEquals(UNIT, peer.recvUnit);
        assertTrue(peer.sameHost(), "a hello with the host proof the listener expects is from this host");
        assertTrue(session.isEstablished());
        assertFalse(session.isHandshaking());
    }

    /**
     * On the TCP data path no address is read, even if one follows: what follows the hello is the application's
     * bytes over plain TCP, left unconsumed, and the listener is never told of an address.
     */
    @ParameterizedTest
    @EnumSource(Side.class)
    void onTheTcpDataPathNoAddressIsReadAndWhatFollowsIsLeftToIt(Side side) throws IOException {
        listener.ucx = false;
        UcxSession session = newSession(side);
        ByteBuffer after = concat(address(), record(UcxHandshake.RECORD_CLOSE, 0));
        int afterBytes = after.remaining();
        assertFalse(input.feed(session, concat(peerIntro(side), peerHello(side), after), 0));
        assertEquals(State.PLAIN, session.state());
        assertTrue(session.isPlain(), "no records come or go");
        assertEquals(List.of("intro", "hello"), listener.events);
        assertTrue(listener.addresses.isEmpty());
        assertNull(session.peer().workerAddress);
        assertSame(listener.hellos.get(0), session.peer());
        assertEquals(afterBytes, input.unparsed(), "the bytes after the hello stay for the TCP data path");
        assertFalse(session.atEndOfInput(0), "a record in those bytes is not the session's");
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void addressesOfTheLargestAndSmallestLengthsAreRead(Side side) throws IOException {
        for (int length : new int[] {1, UcxHandshake.MAX_WORKER_ADDRESS}) {
            Listener fresh = new Listener();
            Input freshInput = new Input();
            UcxSession session = side == Side.CLIENT ? new UcxSession(fresh, true) : UcxSession.accepted(fresh);
            byte[] workerAddress = filled(length, 0x42);
            workerAddress[length - 1] = 7;
            freshInput.feed(session, concat(peerIntro(side), peerHello(side),
                    UcxHandshake.encodeAddress(workerAddress)), 0);
            assertEquals(State.OPEN, session.state(), "address of " + length + " bytes");
            assertArrayEquals(workerAddress, fresh.addresses.get(0).workerAddress);
            assertEquals(0, freshInput.unparsed());
        }
    }

    // ---- accepted clients: netty-ucx or plain ----

    @Test
    void aPlainClientKeepsEveryByteForThePipeline() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        assertFalse(input.feed(session, ascii("GET / HTTP/1.1\r\n"), 0));
        assertEquals(State.PLAIN, session.state());
        assertEquals(List.of("plain"), listener.events);
        assertEquals("GET / HTTP/1.1\r\n".length(), input.unparsed(), "the client's bytes stay unconsumed");
        assertTrue(session.isEstablished(), "a plain connection is up at once");
        assertTrue(session.isPlain());
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
        assertEquals(List.of("plain"), listener.events);
        assertTrue(session.isEstablished());
        assertThrows(IllegalStateException.class, session::clientSilent, "only while nothing is known");
    }

    @Test
    void aClientThatSentTheMagicIsNotSilent() throws IOException {
        UcxSession session = sessionIn(Side.ACCEPTED, State.AWAITING_INTRO);
        assertThrows(IllegalStateException.class, session::clientSilent);
        assertEquals(State.AWAITING_INTRO, session.state());
        assertTrue(listener.events.isEmpty(), "nothing is told before the whole intro");
    }

    @Test
    void aPrefixOfTheMagicThenOtherBytesIsAPlainClient() throws IOException {
        ByteBuffer intro = peerIntro(Side.ACCEPTED);
        for (int prefix = 1; prefix < Integer.BYTES; prefix++) {
            listener.events.clear();
            Input fresh = new Input();
            UcxSession session = UcxSession.accepted(listener);
            fresh.feed(session, prefix(intro, prefix), 0);
            assertEquals(State.AWAITING_CLIENT, session.state(), "after " + prefix + " bytes of the magic");
            fresh.feed(session, ascii("?"), 0);
            assertEquals(State.PLAIN, session.state());
            assertEquals(List.of("plain"), listener.events);
            assertEquals(prefix + 1, fresh.unparsed(), "every byte is kept");
        }
    }

    @Test
    void aTlsClientHelloIsAPlainClient() throws IOException {
        UcxSession session = UcxSession.accepted(listener);
        input.feed(session, ByteBuffer.wrap(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00}), 0);
        assertEquals(State.PLAIN, session.state());
    }

    // ---- malformed or hostile intros ----

    /** A client of protocol 3 (magic, then its hello) or 5 is refused before the listener hears of it. */
    @ParameterizedTest
    @EnumSource(Side.class)
    void anIntroOfAnotherVersionIsRefused(Side side) {
        for (int version : new int[] {UcxHandshake.VERSION - 1, UcxHandshake.VERSION + 1}) {
            ByteBuffer bad = peerIntro(side);
            bad.putShort(4, (short) version);
            assertRefused(side, bad, "unsupported netty-ucx protocol version " + version, List.of());
        }
    }

    /** A server that answers with anything but the magic is refused, from 8 bytes, without waiting for more. */
    @Test
    void aServerIntroWithABadMagicIsRefusedFromItsFirst8Bytes() {
        for (int magic : new int[] {0x48545450 /* "HTTP" */, 0x16030100 /* TLS */, UcxHandshake.MAGIC + 1}) {
            ByteBuffer bad = peerIntro(Side.CLIENT);
            bad.putInt(0, magic);
            assertRefused(Side.CLIENT, prefix(bad, 8), "not a netty-ucx peer", List.of());
        }
    }

    /**
     * An intro carrying our own nonce is ours sent back (an echo server, or a client reflecting a server): refused,
     * and for a client already from the 24 bytes an echo returns, not left waiting for a server intro's 56.
     */
    @ParameterizedTest
    @EnumSource(Side.class)
    void anIntroCarryingOurOwnNonceIsRefused(Side side) {
        assertRefused(side, peerIntro(side, OWN_NONCE.clone()), "it sent our own intro back", List.of());
        if (side == Side.CLIENT) {
            assertRefused(side, UcxHandshake.encodeClientIntro(OWN_NONCE.clone()), "it sent our own intro back",
                    List.of());
        }
    }

    /** Only our exact nonce is an echo: one that differs in its last byte is another peer's. */
    @ParameterizedTest
    @EnumSource(Side.class)
    void anIntroWithANonceNearOursIsAPeers(Side side) throws IOException {
        byte[] near = OWN_NONCE.clone();
        near[near.length - 1] ^= 1;
        UcxSession session = newSession(side);
        input.feed(session, peerIntro(side, near), 0);
        assertEquals(State.AWAITING_HELLO, session.state());
        assertArrayEquals(near, listener.intros.get(0).nonce);
    }

    // ---- malformed hellos ----

    @ParameterizedTest
    @EnumSource(Side.class)
    void aHelloWithAReceiveWindowOutside1To65536IsRefused(Side side) {
        for (int window : new int[] {0, 65537, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
            assertHelloRefused(side, peerHello(side, 0, ID, window, UNIT),
                    "bad receive window in handshake: " + Integer.toUnsignedString(window));
        }
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void aHelloWithAReceiveUnitOutside64BytesTo64MiBIsRefused(Side side) {
        for (int unit : new int[] {0, 63, 64 * 1024 * 1024 + 1, Integer.MAX_VALUE, -1}) {
            assertHelloRefused(side, peerHello(side, 0, ID, WINDOW, unit),
                    "bad receive unit in handshake: " + Integer.toUnsignedString(unit));
        }
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void aHelloWithConnectionId0IsRefused(Side side) {
        assertHelloRefused(side, peerHello(side, 0, 0, WINDOW, UNIT), "bad connection id in handshake: 0");
    }

    /** The limits themselves are allowed: 1 and 65536 messages, 64 bytes and 64 MiB, any id but 0. */
    @ParameterizedTest
    @EnumSource(Side.class)
    void aHelloAtTheLimitsIsAccepted(Side side) throws IOException {
        int[][] fields = {{1, 1, 64}, {-1, 65536, 64 * 1024 * 1024}, {Integer.MIN_VALUE, 2, 65536}};
        for (int[] field : fields) {
            Listener fresh = new Listener();
            UcxSession session = side == Side.CLIENT ? new UcxSession(fresh, true) : UcxSession.accepted(fresh);
            new Input().feed(session, concat(peerIntro(side), peerHello(side, 0, field[0], field[1], field[2])), 0);
            assertEquals(State.AWAITING_ADDRESS, session.state(), Arrays.toString(field));
            UcxHandshake.Hello hello = fresh.hellos.get(0);
            assertEquals(field[0], hello.connectionId);
            assertEquals(field[1], hello.recvWindow);
            assertEquals(field[2], hello.recvUnit);
        }
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void aHellosFlagsReachTheListenerWhole(Side side) throws IOException {
        UcxSession session = newSession(side);
        input.feed(session, concat(peerIntro(side), peerHello(side, 0xFFFF, ID, WINDOW, UNIT)), 0);
        assertEquals(0xFFFF, listener.hellos.get(0).flags);
        assertEquals(State.AWAITING_ADDRESS, session.state());
    }

    private void assertHelloRefused(Side side, ByteBuffer hello, String message) {
        assertRefused(side, concat(peerIntro(side), hello), message, List.of("intro"));
    }

    // ---- malformed addresses ----

    /** A length outside 1..65536 is refused from the 4 bytes of the length, before any of the address is awaited. */
    @ParameterizedTest
    @EnumSource(Side.class)
    void anAddressOfABadLengthIsRefused(Side side) {
        for (int length : new int[] {0, UcxHandshake.MAX_WORKER_ADDRESS + 1, Integer.MAX_VALUE, -1}) {
            ByteBuffer header = ByteBuffer.allocate(UcxHandshake.ADDRESS_HEADER_BYTES).putInt(0, length);
            assertRefused(side, concat(peerIntro(side), peerHello(side), header),
                    "bad worker address length in handshake: " + length, List.of("intro", "hello"));
        }
    }

    /** Refused from what arrived so far: the session is gone, nothing more was told, no peer, a forced close. */
    private void assertRefused(Side side, ByteBuffer bytes, String message, List<String> toldBefore) {
        listener.events.clear();
        Input fresh = new Input();
        UcxSession session = newSession(side);
        ProtocolException e = assertThrows(ProtocolException.class, () -> fresh.feed(session, bytes, 0));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(State.GONE, session.state());
        assertEquals(toldBefore, listener.events);
        assertNull(session.peer());
        assertFalse(session.isEstablished());
        assertTrue(session.closeForcibly());
        assertFalse(session.closed(), "no close record to a peer refused during the handshake");
    }

    // ---- truncated handshakes ----

    static Stream<Arguments> sidesAndHandshakeStates() {
        List<Arguments> all = new ArrayList<>();
        for (Side side : Side.values()) {
            for (State state : new State[] {State.AWAITING_INTRO, State.AWAITING_HELLO, State.AWAITING_ADDRESS}) {
                all.add(Arguments.of(side, state));
            }
        }
        return all.stream();
    }

    /** Each part of the handshake one byte short, then the end of the stream: a reset during the handshake. */
    @ParameterizedTest
    @MethodSource("sidesAndHandshakeStates")
    void aTruncatedHandshakeFollowedByTheEndIsAResetDuringTheHandshake(Side side, State state) throws IOException {
        ByteBuffer whole = handshake(side);
        int introBytes = peerIntro(side).remaining();
        int helloBytes = peerHello(side).remaining();
        int length = state == State.AWAITING_INTRO ? introBytes - 1
                : state == State.AWAITING_HELLO ? introBytes + helloBytes - 1 : whole.remaining() - 1;
        UcxSession session = newSession(side);
        assertFalse(input.feed(session, prefix(whole, length), 0));
        assertEquals(state, session.state());
        assertTrue(session.isHandshaking());
        assertTrue(listener.addresses.isEmpty());
        IOException cause = session.sideChannelEnded();
        assertNotNull(cause);
        assertTrue(cause.getMessage().contains("during the UCX handshake"), cause.getMessage());
        assertFalse(session.peerLost(), "a peer that never finished its handshake was not there");
        assertEquals(State.GONE, session.state());
        assertTrue(session.closeForcibly());
        assertFalse(session.closed(), "no close record for a peer that never finished its handshake");
    }

    // ---- the listener refuses ----

    @ParameterizedTest
    @EnumSource(Side.class)
    void anIntroTheListenerRefusesLeavesThePeerGone(Side side) {
        listener.introRefusal = new ProtocolException("refused");
        UcxSession session = newSession(side);
        assertThrows(ProtocolException.class, () -> input.feed(session, handshake(side), 0));
        assertEquals(State.GONE, session.state());
        assertTrue(listener.events.isEmpty(), "nothing told after a refused intro: " + listener.events);
        assertTrue(session.closeForcibly());
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void aHelloTheListenerRefusesLeavesThePeerGone(Side side) {
        listener.helloRefusal = new ProtocolException("this side does not trust the peer with UCX");
        UcxSession session = newSession(side);
        assertThrows(ProtocolException.class, () -> input.feed(session, handshake(side), 0));
        assertEquals(State.GONE, session.state());
        assertEquals(List.of("intro"), listener.events, "no address read after a refused hello");
        assertFalse(session.isEstablished());
        assertTrue(session.closeForcibly());
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void anAddressTheListenerRefusesLeavesThePeerGone(Side side) {
        listener.addressRefusal = new ProtocolException("peer's UCX worker address has format version 9");
        UcxSession session = newSession(side);
        assertThrows(ProtocolException.class, () -> input.feed(session, handshake(side), 0));
        assertEquals(State.GONE, session.state());
        assertNull(session.peer());
        assertFalse(session.isEstablished());
        assertTrue(session.closeForcibly());
        assertFalse(session.closed());
    }

    // ---- records ----

    @ParameterizedTest
    @EnumSource(Side.class)
    void anUnknownRecordIsAProtocolViolation(Side side) throws IOException {
        UcxSession session = sessionIn(side, State.OPEN);
        ProtocolException e = assertThrows(ProtocolException.class, () -> input.feed(session, record('X', 0), 0));
        assertTrue(e.getMessage().contains("unknown side-channel record type"), e.getMessage());
        assertEquals(State.GONE, session.state());
    }

    @Test
    void aRecordClaimingFewerMessagesThanArrivedIsAProtocolViolation() throws IOException {
        UcxSession session = sessionIn(Side.CLIENT, State.OPEN);
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> input.feed(session, record(UcxHandshake.RECORD_CLOSE, 2), 3));
        assertTrue(e.getMessage().contains("claims 2 messages but 3 arrived"), e.getMessage());
        assertEquals(State.GONE, session.state());
    }

    /** After a close ('C') or reset ('R') record nothing may follow: not even another close. */
    @ParameterizedTest
    @EnumSource(Side.class)
    void anyRecordAfterACloseRecordIsAProtocolViolation(Side side) throws IOException {
        for (char close : new char[] {'C', 'R'}) {
            for (char next : new char[] {'S', 'C', 'R', 'X'}) {
                for (boolean together : new boolean[] {true, false}) {
                    String what = next + " after " + close + (together ? " in one read" : " in two reads");
                    Input fresh = new Input();
                    UcxSession session = newSession(side);
                    fresh.feed(session, handshake(side), 0);
                    ProtocolException e;
                    if (together) {
                        e = assertThrows(ProtocolException.class,
                                () -> fresh.feed(session, concat(record(close, 3), record(next, 3)), 0), what);
                    } else {
                        assertTrue(fresh.feed(session, record(close, 3), 0), what);
                        assertEquals(State.PEER_CLOSED, session.state(), what);
                        e = assertThrows(ProtocolException.class, () -> fresh.feed(session, record(next, 3), 0),
                                what);
                    }
                    assertTrue(e.getMessage().contains("after the close record"), what + ": " + e.getMessage());
                    assertEquals(State.GONE, session.state(), what);
                    assertTrue(session.peerWillNotRead(), what);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void aSecondShutdownRecordIsAProtocolViolation(Side side) throws IOException {
        UcxSession session = sessionIn(side, State.PEER_OUTPUT_SHUT);
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> input.feed(session, record(UcxHandshake.RECORD_SHUTDOWN_OUTPUT, 3), 0));
        assertTrue(e.getMessage().contains("second shutdown-output record"), e.getMessage());
        assertEquals(State.GONE, session.state());
    }

    /** The count a record announces is final: a later close may not move it, up or down. */
    @ParameterizedTest
    @EnumSource(Side.class)
    void aRecordMovingTheAnnouncedEndIsAProtocolViolation(Side side) throws IOException {
        for (char close : new char[] {'C', 'R'}) {
            for (int moved : new int[] {2, 4}) {
                Input fresh = new Input();
                UcxSession session = newSession(side);
                fresh.feed(session, concat(handshake(side), record('S', 3)), 0);
                assertEquals(State.PEER_OUTPUT_SHUT, session.state());
                ProtocolException e = assertThrows(ProtocolException.class,
                        () -> fresh.feed(session, record(close, moved), 0), close + " " + moved);
                assertTrue(e.getMessage().contains("moved its announced end from 3 to " + moved), e.getMessage());
                assertEquals(State.GONE, session.state());
                assertFalse(session.peerClosedInOrder());
            }
        }
        UcxSession same = sessionIn(side, State.PEER_OUTPUT_SHUT);
        assertTrue(input.feed(same, record('C', 3), 0), "a close at the same count");
        assertEquals(State.PEER_CLOSED, same.state());
    }

    /**
     * Where the receive window bounds the peer (UCX), a record may not claim more messages in flight than the window
     * beyond those that arrived, also where the counts wrap past 2^32; without a bound any count ahead is taken.
     */
    @ParameterizedTest
    @EnumSource(Side.class)
    void aRecordClaimingMoreInFlightThanTheWindowIsAProtocolViolation(Side side) throws IOException {
        int[] received = {0, 100, Integer.MAX_VALUE, -3};
        for (int arrived : received) {
            for (char type : new char[] {'S', 'C', 'R'}) {
                String what = type + " with " + Integer.toUnsignedString(arrived) + " arrived";
                Input fresh = new Input();
                UcxSession session = newSession(side);
                fresh.feed(session, handshake(side), 0);
                session.boundPeerInFlight(WINDOW);
                ProtocolException e = assertThrows(ProtocolException.class,
                        () -> fresh.feed(session, record(type, arrived + WINDOW + 1), arrived), what);
                assertTrue(e.getMessage().contains("in flight"), what + ": " + e.getMessage());
                assertEquals(State.GONE, session.state(), what);

                Input fresh2 = new Input();
                UcxSession atBound = newSession(side);
                fresh2.feed(atBound, handshake(side), 0);
                atBound.boundPeerInFlight(WINDOW);
                assertTrue(fresh2.feed(atBound, record(type, arrived + WINDOW), arrived), what + " at the window");
                assertTrue(atBound.peerMessagesInFlight(arrived), what);
                assertTrue(atBound.atEndOfInput(arrived + WINDOW), what);
            }
        }
        UcxSession unbounded = sessionIn(side, State.OPEN);
        assertTrue(input.feed(unbounded, record('C', 1_000_000), 0), "no bound set (set with the UCX data path)");
        assertEquals(State.PEER_CLOSED, unbounded.state());
    }

    @Test
    void theEndOfInputIsReachedWhenTheAnnouncedMessagesAreRead() throws IOException {
        UcxSession session = sessionIn(Side.CLIENT, State.OPEN);
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
        UcxSession session = sessionIn(Side.CLIENT, State.OPEN);
        int beyond = Integer.MIN_VALUE + 2; // 2^31 + 2
        assertTrue(input.feed(session, record(UcxHandshake.RECORD_CLOSE, beyond), Integer.MAX_VALUE));
        assertTrue(session.peerMessagesInFlight(Integer.MAX_VALUE));
        assertFalse(session.atEndOfInput(Integer.MIN_VALUE + 1));
        assertTrue(session.atEndOfInput(beyond));
        assertFalse(session.peerMessagesInFlight(beyond));

        Input otherInput = new Input();
        UcxSession other = newSession(Side.CLIENT);
        otherInput.feed(other, handshake(Side.CLIENT), 0);
        assertThrows(ProtocolException.class,
                () -> otherInput.feed(other, record(UcxHandshake.RECORD_CLOSE, Integer.MAX_VALUE),
                        Integer.MIN_VALUE + 1),
                "a record claiming 2^31 - 1 messages when 2^31 + 1 arrived");
    }

    @Test
    void aResetRecordClosesThePeerAsAReset() throws IOException {
        UcxSession session = sessionIn(Side.ACCEPTED, State.OPEN);
        assertFalse(session.peerReset());
        assertTrue(input.feed(session, record(UcxHandshake.RECORD_RESET, 4), 1));
        assertEquals(State.PEER_CLOSED, session.state());
        assertTrue(session.peerReset());
        assertTrue(session.peerClosedInOrder(), "its messages before the reset are still delivered");
        assertTrue(session.peerMessagesInFlight(1));
        assertNull(session.sideChannelEnded(), "the side channel's end after a reset record is expected");
    }

    @Test
    void recordsInTheSameReadAsTheAddressAreParsed() throws IOException {
        UcxSession session = newSession(Side.ACCEPTED);
        assertTrue(input.feed(session, concat(handshake(Side.ACCEPTED), record('S', 0)), 0));
        assertEquals(State.PEER_OUTPUT_SHUT, session.state());
        assertEquals(0, input.unparsed());
    }

    // ---- the end of the side channel ----

    @Test
    void theSideChannelsEndAfterACloseRecordIsOrderly() throws IOException {
        UcxSession session = sessionIn(Side.CLIENT, State.PEER_CLOSED);
        assertNull(session.sideChannelEnded());
        assertEquals(State.PEER_CLOSED, session.state());
        assertTrue(session.isSideChannelEnded());
        assertFalse(session.canAnnounceShutdown());
        assertFalse(session.closed(), "no close record on a side channel that ended");
    }

    @ParameterizedTest
    @EnumSource(Side.class)
    void theSideChannelsEndWithoutACloseRecordIsAReset(Side side) throws IOException {
        for (State state : new State[] {State.OPEN, State.PEER_OUTPUT_SHUT}) {
            UcxSession session = sessionIn(side, state);
            IOException cause = session.sideChannelEnded();
            assertNotNull(cause, state.name());
            assertTrue(cause.getMessage().contains("without a close record"), cause.getMessage());
            assertTrue(session.peerLost(), "the peer was there until its side channel ended in " + state);
            assertEquals(State.GONE, session.state());
        }
    }

    @Test
    void aCloseRecordStillCountsAfterThePeerIsLost() throws IOException {
        UcxSession session = sessionIn(Side.ACCEPTED, State.PEER_CLOSED);
        assertFalse(session.peerLost());
        assertEquals(State.GONE, session.state());
        assertNull(session.sideChannelEnded(), "the peer had closed in order before it was lost");
        assertFalse(session.canAnnounceShutdown());
    }

    // ---- every state ----

    @ParameterizedTest
    @MethodSource("sidesAndStates")
    void aPeerLostInEachState(Side side, State state) throws IOException {
        UcxSession session = sessionIn(side, state);
        boolean wasThere = session.peerLost();
        assertEquals(state == State.OPEN || state == State.PEER_OUTPUT_SHUT || state == State.PLAIN, wasThere,
                "whether the peer counted as there in " + state);
        assertEquals(state == State.CLOSED ? State.CLOSED : State.GONE, session.state());
        assertTrue(session.peerWillNotRead());
        assertFalse(session.peerClosedInOrder());
        assertFalse(session.isHandshaking());
        assertFalse(session.closed(), "a close record to a lost peer");
        assertEquals(State.CLOSED, session.state());
    }

    @ParameterizedTest
    @MethodSource("sidesAndStates")
    void inputAfterTheEndIsIgnored(Side side, State state) throws IOException {
        if (state != State.GONE && state != State.CLOSED && state != State.CONNECTING) {
            return;
        }
        UcxSession session = sessionIn(side, state);
        List<String> before = new ArrayList<>(listener.events);
        assertFalse(input.feed(session, concat(handshake(side), record(UcxHandshake.RECORD_CLOSE, 0)), 0));
        assertEquals(state, session.state());
        assertEquals(before, listener.events);
    }

    @ParameterizedTest
    @MethodSource("sidesAndStates")
    void closingInEachState(Side side, State state) throws IOException {
        UcxSession session = sessionIn(side, state);
        boolean forcibly = session.closeForcibly();
        boolean announce = session.closed();
        boolean established = state == State.OPEN || state == State.PEER_OUTPUT_SHUT || state == State.PEER_CLOSED
                || state == State.GONE || state == State.CLOSED || state == State.PLAIN;
        boolean peerThere = state == State.OPEN || state == State.PEER_OUTPUT_SHUT || state == State.PEER_CLOSED
                || state == State.PLAIN;
        assertEquals(established && peerThere, announce, "close record in " + state);
        assertEquals(!established || state == State.GONE, forcibly, "forced close in " + state);
        assertEquals(State.CLOSED, session.state());
        assertTrue(session.peerWillNotRead());
    }

    /**
     * A shutdown-output record may go out only where the peer parses records next: not before our hello and (on
     * UCX) our address went out, since the peer reads those first. A client in AWAITING_HELLO has sent its hello,
     * but its address is still to come: a record there would be read as the address's length.
     */
    @ParameterizedTest
    @MethodSource("sidesAndStates")
    void whoCanBeToldOfAShutdown(Side side, State state) throws IOException {
        UcxSession session = sessionIn(side, state);
        boolean expected = state == State.AWAITING_ADDRESS || state == State.OPEN || state == State.PEER_OUTPUT_SHUT
                || state == State.GONE || state == State.PLAIN;
        assertEquals(expected, session.canAnnounceShutdown(), side + " in " + state);
    }

    @ParameterizedTest
    @MethodSource("sidesAndStates")
    void whoWillReadOurWrites(Side side, State state) throws IOException {
        UcxSession session = sessionIn(side, state);
        boolean expected = state == State.PEER_CLOSED || state == State.GONE || state == State.CLOSED;
        assertEquals(expected, session.peerWillNotRead(), state.name());
        assertEquals(state == State.PEER_CLOSED, session.peerClosedInOrder(), state.name());
    }

    @ParameterizedTest
    @MethodSource("sidesAndStates")
    void whoIsStillAStranger(Side side, State state) throws IOException {
        UcxSession session = sessionIn(side, state);
        boolean expected = state == State.AWAITING_CLIENT || state == State.AWAITING_INTRO
                || state == State.AWAITING_HELLO || state == State.AWAITING_ADDRESS;
        assertEquals(expected, session.isHandshaking(), side + " in " + state);
    }
}
