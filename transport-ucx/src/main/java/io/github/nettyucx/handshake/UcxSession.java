/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;

/**
 * The session of one connection as its side channel sees it: the peer's hello, the records that
 * follow it (output shut down, closed), and whether the peer is still there. Pure Java, used on the
 * event loop only; the channel feeds it events and asks it questions, and {@link Listener} is told
 * when the hello arrives. The wire format is {@link UcxHandshake}'s (docs/protocol.md).
 * <pre>
 *  AWAITING_CLIENT --the magic--&gt; AWAITING_INTRO                (accepted: we answer a netty-ucx client only)
 *  AWAITING_CLIENT --other bytes, clientSilent--&gt; PLAIN        (plain TCP: its end is its socket's)
 *  CONNECTING --tcpConnected--&gt; AWAITING_INTRO --intro--&gt; AWAITING_HELLO --hello, TCP data path--&gt; PLAIN
 *                                                        |
 *                                                        +--hello, UCX--&gt; AWAITING_ADDRESS --address--&gt; OPEN
 *  OPEN --'S'--&gt; PEER_OUTPUT_SHUT;  OPEN, PEER_OUTPUT_SHUT --'C', 'R'--&gt; PEER_CLOSED
 *  any state but CLOSED --peerLost (reset, death, protocol violation)--&gt; GONE
 *  any state --closed--&gt; CLOSED
 * </pre>
 * ('R' is a close with SO_LINGER 0: {@link #peerReset()}.) The end of the side channel's stream is a fact of
 * its own ({@link #sideChannelEnded}): after a close record it is the orderly end, before one the peer is gone.
 */
public final class UcxSession {

    /** Where the session stands, as far as the peer is concerned. */
    public enum State {
        /** A client whose TCP connect is in flight. */
        CONNECTING,
        /** An accepted connection whose client has sent too little to tell what it speaks; we sent nothing. */
        AWAITING_CLIENT,
        /**
         * Plain TCP, no records: a peer that does not speak netty-ucx (no hellos either), or the TCP data path after
         * the hellos. Its end of stream and its resets are what its socket reads ({@code UcxPlainDataPath}), not the
         * session's.
         */
        PLAIN,
        /** A netty-ucx peer: its intro (challenge, and a server's proof) has not arrived. */
        AWAITING_INTRO,
        /** Intros exchanged; the peer's hello has not arrived. */
        AWAITING_HELLO,
        /** Hellos exchanged, UCX chosen: the peer's worker address has not arrived. */
        AWAITING_ADDRESS,
        /** The data path is up. */
        OPEN,
        /** The peer shut its output down: no messages beyond {@link #peerFinalSeq()} will come. */
        PEER_OUTPUT_SHUT,
        /** The peer closed in order; its last messages may still be in flight or unread. */
        PEER_CLOSED,
        /** The peer reset, died, or broke the protocol: nothing more comes, nothing of ours is read. */
        GONE,
        /** This side closed. */
        CLOSED
    }

    /** Told what the session learns that the connection must act on. */
    interface Listener {
        /**
         * An accepted client's first bytes ({@code in}, in read mode; not to be consumed here) are not a netty-ucx
         * hello's: the listener makes the connection plain TCP. Those bytes stay unconsumed in the input: they are
         * the first the pipeline reads.
         */
        void plainClient(ByteBuffer in) throws IOException;

        /**
         * The peer's intro arrived: a server sends its own intro; a client decides whether it trusts the server and
         * sends its hello.
         */
        void introReceived(UcxHandshake.Intro intro) throws IOException;

        /**
         * The peer's hello arrived: the listener decides the data path (a server sends its hello first). Returns
         * true when that is UCX: the peer's worker address comes next. Otherwise the listener has made the connection
         * plain TCP (the TCP data path), with the input after the hello as its first bytes. A
         * {@link ProtocolException} rejects the peer; another IOException means the connection could not be set up.
         */
        boolean helloReceived(UcxHandshake.Hello hello) throws IOException;

        /** The host proof that the peer's hello carries if the peer runs on this host (the intros are done). */
        byte[] expectedPeerHostProof();

        /** The peer's worker address arrived ({@code hello} carries it): the listener connects over UCX. */
        void addressReceived(UcxHandshake.Hello hello) throws IOException;
    }

    private final Listener listener;
    private final boolean accepted;
    private State state;
    private UcxHandshake.Hello peer;
    /** The peer's hello while its worker address is awaited. */
    private UcxHandshake.Hello pendingHello;
    /** The most messages the peer can have in flight (our receive window on the UCX data path), 0: no bound. */
    private int peerInFlightBound;
    /** Our nonce: an intro carrying it is our own, sent back. */
    private byte[] ownNonce;
    /**
     * Messages the peer sent before it shut down its output or closed, once {@link #peerEndAnnounced}.
     * Message counts wrap around past 2^31 (the wire carries them as u32), so they are compared by
     * their difference, never with {@code <}.
     */
    private int peerFinalSeq;
    private boolean peerEndAnnounced;
    private boolean sideChannelEnded;
    /** The peer's close record arrived (it stays true if the peer is lost afterwards). */
    private boolean closeRecordReceived;
    /** That close record was a reset ({@code SO_LINGER} 0). */
    private boolean peerReset;
    /** The connection is plain TCP (it went through {@link State#PLAIN}): no records come or go. */
    private boolean plain;

    /**
     * A session of a client, whose TCP connection is still to be made ({@code connected} false), or whose hello
     * has gone out on a connected socket ({@code connected} true).
     */
    UcxSession(Listener listener, boolean connected) {
        this(listener, connected ? State.AWAITING_INTRO : State.CONNECTING, false);
    }

    private UcxSession(Listener listener, State initial, boolean accepted) {
        this.listener = listener;
        this.state = initial;
        this.accepted = accepted;
    }

    /** The session of an accepted connection: its client's first bytes tell whether it speaks netty-ucx. */
    static UcxSession accepted(Listener listener) {
        return new UcxSession(listener, State.AWAITING_CLIENT, true);
    }

    /** Our challenge, sent in our intro: an intro that carries it is ours, sent back. */
    void ownNonce(byte[] nonce) {
        ownNonce = nonce;
    }

    /**
     * Messages the peer can have in flight at most (our receive window, where credits bound it): a record claiming
     * more is a protocol violation.
     */
    void boundPeerInFlight(int messages) {
        peerInFlightBound = messages;
    }

    public State state() {
        return state;
    }

    /** The peer's hello, or null before it arrived. */
    UcxHandshake.Hello peer() {
        return peer;
    }

    public boolean isTcpConnected() {
        return state != State.CONNECTING;
    }

    /** Messages the peer announced as its last (a u32 count); meaningful once it announced an end. */
    public int peerFinalSeq() {
        return peerFinalSeq;
    }

    // ---- events ----

    /** The client's TCP connection is made; our intro goes out next. */
    void tcpConnected() {
        expect(State.CONNECTING, "tcpConnected");
        state = State.AWAITING_INTRO;
    }

    /** True while the peer is a stranger: neither the data path nor plain TCP is set up yet. */
    public boolean isHandshaking() {
        return state == State.AWAITING_CLIENT || state == State.AWAITING_INTRO || state == State.AWAITING_HELLO
                || state == State.AWAITING_ADDRESS;
    }

    /**
     * Parses what arrived on the side channel ({@code in} in read mode; it may hold a part of the
     * hello or of a record, which stays unconsumed for the next call): the peer's hello first, then
     * records. {@code messagesReceived} is how many of the peer's messages have arrived so far.
     * Returns true when a record announced the end of the peer's output (the reader has something to
     * look at). A malformed hello or record throws {@link ProtocolException} and leaves the session
     * {@link State#GONE}; so does a failure of the listener.
     */
    public boolean input(ByteBuffer in, int messagesReceived) throws IOException {
        if (state == State.GONE || state == State.CLOSED || state == State.CONNECTING) {
            return false;
        }
        try {
            if (state == State.AWAITING_CLIENT && !identifyClient(in)) {
                return false;
            }
            if (state == State.AWAITING_INTRO) {
                UcxHandshake.Intro intro = UcxHandshake.decodeIntro(in, !accepted, ownNonce);
                if (intro == null) {
                    return false;
                }
                state = State.AWAITING_HELLO;
                listener.introReceived(intro);
            }
            if (state == State.AWAITING_HELLO) {
                UcxHandshake.Hello hello = UcxHandshake.decodeHello(in, accepted, listener.expectedPeerHostProof());
                if (hello == null) {
                    return false;
                }
                if (listener.helloReceived(hello)) {
                    pendingHello = hello;
                    state = State.AWAITING_ADDRESS;
                } else {
                    // The TCP data path: plain TCP from here, whose bytes are the application's, not ours to parse.
                    peer = hello;
                    state = State.PLAIN;
                    plain = true;
                    return false;
                }
            }
            if (state == State.AWAITING_ADDRESS) {
                UcxHandshake.WorkerAddress address = UcxHandshake.decodeAddress(in);
                if (address == null) {
                    return false;
                }
                UcxHandshake.Hello hello = pendingHello.withAddress(address);
                listener.addressReceived(hello);
                pendingHello = null;
                // Kept for the connection's life: without the address, proof and MAC, which only setup needed.
                peer = hello.settled();
                state = State.OPEN;
            }
            return parseRecords(in, messagesReceived);
        } catch (IOException e) {
            state = State.GONE;
            throw e;
        }
    }

    /**
     * An accepted client sent nothing for as long as this side's handlers could wait to write: it is taken for
     * plain TCP (a netty-ucx client sends its hello as soon as it is connected).
     */
    public void clientSilent() throws IOException {
        expect(State.AWAITING_CLIENT, "clientSilent");
        state = State.PLAIN;
        plain = true;
        try {
            listener.plainClient(ByteBuffer.allocate(0));
        } catch (IOException e) {
            state = State.GONE;
            throw e;
        }
    }

    /**
     * A client connected to a server known not to speak netty-ucx ({@code UcxChannelOption.PLAIN_TCP_FALLBACK}):
     * plain TCP, no hello sent or expected.
     */
    void plainServer() {
        expect(State.AWAITING_INTRO, "plainServer");
        state = State.PLAIN;
        plain = true;
    }

    /** Returns true once the client is known to speak netty-ucx (its hello can be parsed next). */
    private boolean identifyClient(ByteBuffer in) throws IOException {
        switch (UcxHandshake.sniff(in)) {
            case UCX:
                state = State.AWAITING_INTRO;
                return true;
            case PLAIN:
                state = State.PLAIN;
                plain = true;
                listener.plainClient(in.asReadOnlyBuffer());
                return false;
            default:
                return false;
        }
    }

    private boolean parseRecords(ByteBuffer in, int messagesReceived) throws ProtocolException {
        boolean ended = false;
        while (in.remaining() >= UcxHandshake.RECORD_BYTES) {
            byte type = in.get();
            int messages = in.getInt();
            if (closeRecordReceived) {
                throw new ProtocolException("side-channel record " + type + " after the close record");
            }
            if (type == UcxHandshake.RECORD_CLOSE || type == UcxHandshake.RECORD_RESET) {
                state = State.PEER_CLOSED;
                closeRecordReceived = true;
                peerReset = type == UcxHandshake.RECORD_RESET;
            } else if (type != UcxHandshake.RECORD_SHUTDOWN_OUTPUT) {
                throw new ProtocolException("unknown side-channel record type " + type);
            } else if (state == State.OPEN) {
                state = State.PEER_OUTPUT_SHUT;
            } else {
                throw new ProtocolException("a second shutdown-output record");
            }
            if (peerEndAnnounced && messages != peerFinalSeq) {
                throw new ProtocolException("peer moved its announced end from " + peerFinalSeq + " to " + messages);
            }
            if (messages - messagesReceived < 0) {
                throw new ProtocolException("peer claims " + messages + " messages but " + messagesReceived
                        + " arrived");
            }
            if (peerInFlightBound > 0 && messages - messagesReceived > peerInFlightBound) {
                throw new ProtocolException("peer claims " + Integer.toUnsignedString(messages - messagesReceived)
                        + " messages in flight; its credits allow " + peerInFlightBound);
            }
            peerFinalSeq = messages;
            peerEndAnnounced = true;
            ended = true;
        }
        return ended;
    }

    /**
     * The side channel's stream ended. Returns null after the peer's close record (the orderly end, also if the peer
     * was lost since); otherwise why the peer counts as gone, which the channel reports and then follows with
     * {@link #peerLost()}.
     */
    public IOException sideChannelEnded() {
        sideChannelEnded = true;
        if (closeRecordReceived) {
            return null;
        }
        if (peer == null) {
            return new IOException("Connection reset by peer during the UCX handshake");
        }
        return new IOException("Connection reset by peer (its side channel closed without a close record)");
    }

    /**
     * The peer vanished, reset, or broke the protocol (or this side can no longer reach it). Returns
     * true when it had been there until now: it neither closed in order nor was known to be gone.
     */
    public boolean peerLost() {
        boolean wasThere = state == State.OPEN || state == State.PEER_OUTPUT_SHUT || state == State.PLAIN;
        if (state != State.CLOSED) {
            state = State.GONE;
        }
        return wasThere;
    }

    /** The side channel's stream ends: the peer is gone unless it closed in order first. */
    void peerLostUnlessClosed() {
        if (state != State.PEER_CLOSED) {
            peerLost();
        }
    }

    /**
     * This side closes. Returns true when the peer should be told with a close record: it sent its
     * hello, is still there, and its side channel is open.
     */
    public boolean closed() {
        // A plain connection's close goes to its socket (a reset is SO_LINGER 0 there).
        boolean announce = (peer != null && !sideChannelEnded || plain) && (state == State.OPEN
                || state == State.PEER_OUTPUT_SHUT || state == State.PEER_CLOSED || state == State.PLAIN);
        state = State.CLOSED;
        return announce;
    }

    // ---- questions ----

    /** True once the peer's hello arrived (or the client turned out to be plain TCP). */
    public boolean isEstablished() {
        return peer != null || plain;
    }

    /** The connection is plain TCP: the peer does not speak netty-ucx, or the hellos chose the TCP data path. */
    public boolean isPlain() {
        return plain;
    }

    /**
     * True when a shutdown-output record can still be written: our hello went out, the side channel is open
     * and the peer has not closed (it need not have sent its hello; a peer known to be gone makes the write
     * fail).
     */
    public boolean canAnnounceShutdown() {
        // Before our hello (and address) went out, the peer would take a record for them.
        return (plain || !sideChannelEnded) && !closeRecordReceived && state != State.CONNECTING
                && state != State.CLOSED && state != State.AWAITING_CLIENT && state != State.AWAITING_INTRO
                && state != State.AWAITING_HELLO;
    }

    /** The peer closed in order (and is not known to be gone since). */
    public boolean peerClosedInOrder() {
        return state == State.PEER_CLOSED;
    }

    /** The peer closed with a reset ({@code SO_LINGER} 0): writes to it fail, as over TCP. */
    public boolean peerReset() {
        return peerReset;
    }

    /** Nothing written now can reach a reader: the peer closed or is gone (or this side closed). */
    public boolean peerWillNotRead() {
        return state == State.PEER_CLOSED || state == State.GONE || state == State.CLOSED;
    }

    /** The native connection must be closed without flushing: the peer is gone or never said hello. */
    public boolean closeForcibly() {
        return peer == null && !plain || state == State.GONE;
    }

    /** All of the peer's messages have been read: its announced end is reached. */
    public boolean atEndOfInput(int messagesReceived) {
        return peerEndAnnounced && messagesReceived == peerFinalSeq;
    }

    /** Messages the peer sent before its end are still on their way. */
    public boolean peerMessagesInFlight(int messagesReceived) {
        return peerEndAnnounced && peerFinalSeq - messagesReceived > 0;
    }

    public boolean isSideChannelEnded() {
        return sideChannelEnded;
    }

    private void expect(State expected, String event) {
        if (state != expected) {
            throw new IllegalStateException(event + " in state " + state + " (expected " + expected + ')');
        }
    }

    @Override
    public String toString() {
        return "UcxSession(" + state + (peerEndAnnounced ? ", peer's end at " + peerFinalSeq : "") + ')';
    }
}
