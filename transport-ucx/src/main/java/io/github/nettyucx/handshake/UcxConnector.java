/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.loop.UcxWorkerKey;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sets one connection up, from its TCP connection to its data path: the trust exchange, the intros, the hellos
 * and the worker addresses, the choice of the data path, a client's fallback to plain TCP and an accepted
 * client that turns out to be plain TCP, with the deadlines of each step and what the metrics and the flight
 * recorder see of it. The {@link UcxSession} it owns parses the side channel and tells it what arrived; the
 * sockets, the native connection and the pipeline stay with the channel, which it reaches through {@link Host}
 * only, so that it runs without an event loop in tests. Used on the event loop only.
 * <p>
 * What goes out when, for a client: its intro (a challenge) as soon as TCP connects; its hello, which says
 * whether it trusts the server, once the server's intro proved (or failed to prove) the server; its worker
 * address only when both hellos chose UCX, and only once the server's address arrived (and, with a shared
 * secret, its MAC checked out). A server answers the intro with its own, and the hello with its hello and, for
 * UCX, its address. No worker address leaves before both sides trust each other. Once the server's intro came, a
 * failed handshake fails the connect: it never falls back to plain TCP.
 */
public final class UcxConnector implements UcxSession.Listener {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxConnector.class);
    private static final PeerWarnings PEER_WARNINGS = new PeerWarnings(logger);
    /** Their own share of the log: a flood of bad handshakes must not hide them, nor they the warnings. */
    private static final PeerWarnings SILENT_CLIENTS = new PeerWarnings(logger);
    /** The process's client connects downgraded to plain TCP, and accepted silent clients served as plain TCP. */
    private static final LongAdder PLAIN_TCP_FALLBACKS = new LongAdder();
    private static final LongAdder SILENT_CLIENTS_PLAIN = new LongAdder();
    /** The id in a server's hello with no native connection behind it (a refusal, the TCP data path); not 0. */
    public static final int NO_CONNECTION_ID = -1;
    /** The least time a UCX endpoint has to come up, whatever the connect timeout. */
    static final int MIN_ENDPOINT_SETUP_MILLIS = 10_000;
    /** How often the endpoint is looked at until it came up. */
    static final int ENDPOINT_CHECK_MILLIS = 100;
    /**
     * How long a client with {@code UcxChannelOption.PLAIN_TCP_FALLBACK} waits for the server's intro before it takes
     * the server for one that does not speak netty-ucx. 3 s: our intro or the server's may be lost once and resent
     * after TCP's retransmission timeout (1 s at first on Linux), and a netty-ucx server answers only after it read
     * ours, so two such losses in a row, and a busy loop, must not make a netty-ucx server look silent.
     */
    static final int DEFAULT_FALLBACK_HELLO_MILLIS = 3000;
    private static final int FALLBACK_HELLO_MILLIS = Math.max(1, SystemPropertyUtil.getInt(
            "io.github.nettyucx.plainTcpFallback.helloMillis", DEFAULT_FALLBACK_HELLO_MILLIS));

    /** What the connector needs of its channel: the side channel's socket, the native connection, the loop. */
    public interface Host {
        /** Queues handshake bytes on the side channel. */
        void send(ByteBuffer bytes) throws IOException;

        /** Writes what is queued on the side channel (or waits for the socket to take it). */
        void flush() throws IOException;

        /** The peer's worker address comes next: the side channel's input must be able to hold it. */
        void expectAddress();

        /** The peer's address, as TCP sees it. */
        InetSocketAddress remoteAddress();

        /** Who owns the peer's end of the TCP connection, from the kernel's socket table; -1 if not this host's. */
        int peerUid();

        /** Makes the side channel's socket report a vanished host (TCP keepalive). */
        void keepAlive();

        /** Creates the native connection (its receives posted), whose id and window go into our hello. */
        Endpoint newEndpoint() throws IOException;

        /** Whether the native connection's endpoint is connected to the peer's worker but not wired up by UCX yet. */
        boolean endpointWiringUp();

        /** This loop's worker address. */
        byte[] workerAddress() throws IOException;

        /** This loop's worker's owner key ({@link UcxWorkerKey}). */
        UcxWorkerKey ownerKey();

        /** Connects the data path both hellos chose. */
        void connectDataPath(UcxDataPathPolicy.Choice choice, UcxHandshake.Hello hello) throws IOException;

        /** Makes the connection plain TCP on its socket, starting with the side channel's unparsed input. */
        void startPlain() throws IOException;

        /** Runs {@code task} on the loop after {@code millis}. */
        Future<?> schedule(Runnable task, long millis);

        boolean isOpen();

        boolean isActive();

        /** The handshake cannot finish: fail the connect, or report {@code cause} and close. */
        void abort(IOException cause);

        /** Close without a word: an accepted peer that did not finish its handshake in time. */
        void close();

        /** The client's fallback deadline passed with no netty-ucx hello: connect again as plain TCP. */
        void fallBack(String why);

        /** An accepted client stayed silent for {@code UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS}. */
        void clientSilent();
    }

    /** The channel's settings the handshake reads, at the time it reads them. */
    public interface Settings {
        /** Bounds the client's connect, handshake included, and the endpoint's wire-up; 0: no bound. */
        int connectTimeoutMillis();

        /** A client falls back to plain TCP when the server does not speak netty-ucx. */
        boolean plainTcpFallback();

        int handshakeTimeoutMillis();

        int clientBytesWaitMillis();

        UcxTrust trust();

        int recvWindow();

        int recvUnit();
    }

    /** What our hello tells of the native connection that {@link Host#newEndpoint()} created for it. */
    public static final class Endpoint {
        final int id;
        final long tagSecret;
        final int messageKey;
        final int recvWindow;
        final int recvUnit;

        public Endpoint(int id, long tagSecret, int messageKey, int recvWindow, int recvUnit) {
            this.id = id;
            this.tagSecret = tagSecret;
            this.messageKey = messageKey;
            this.recvWindow = recvWindow;
            this.recvUnit = recvUnit;
        }
    }

    private final Host host;
    private final Settings config;
    private final boolean accepted;
    private final UcxConnectAttempt attempt = new UcxConnectAttempt();
    /** What the metrics and the flight recorder see of this connection's setup. */
    private final UcxConnectionSetup setup = new UcxConnectionSetup();
    /** Replaced only when a client's connect starts over as plain TCP. */
    private UcxSession session;
    /** Whether this side and the peer trust each other with UCX: created when the TCP connection is made. */
    private UcxTrustExchange trust;
    /** The native connection, once created. */
    private Endpoint endpoint;
    /** The next look at whether the endpoint came up ({@link #scheduleEndpointDeadline()}), while it has not. */
    private Future<?> endpointDeadline;
    /** An accepted channel's look at whether its client stayed silent, until the handshake ends. */
    private Future<?> clientSilenceCheck;
    /** The flags of our hello (with {@link UcxDataPathPolicy#FLAG_TRUSTS} when we trust the peer). */
    private int ourFlags;
    /** Our hello as sent (without a client's proof), which the MAC of our worker address covers. */
    private byte[] ourHelloBody;
    /** The flags of the peer's hello, once it came ({@link #peerHelloSeen}): whether it trusts this side. */
    private int peerFlags;
    private boolean peerHelloSeen;
    /** The owner key the peer's hello named: our ownership proof is keyed with it and ours. */
    private byte[] peerOwnerKey;
    /** Gives back the server's count of handshakes in progress ({@link UcxHandshakeLimits}); null when not held. */
    private Runnable handshakeSlot;
    /** This connect goes plain TCP: the server is known not to speak netty-ucx. */
    private boolean plainAttempt;
    /**
     * The server's intro arrived: it speaks netty-ucx, so a handshake that fails after it fails the connect and
     * never falls back to plain TCP (which would take a refusal, or an address altered on the way, for a server
     * that does not speak netty-ucx).
     */
    private boolean serverSpokeNettyUcx;
    /** Tells a fallback deadline of an earlier attempt from the current one's. */
    private int fallbackGeneration;
    /** The server shed this accepted handshake to admit another ({@link UcxHandshakeLimits}); set on any thread. */
    private volatile boolean shed;

    /** A client's connector ({@code handshakeSlot} null), or an accepted one's, holding a server's handshake slot. */
    public UcxConnector(Host host, Settings config, boolean accepted, Runnable handshakeSlot) {
        this.host = host;
        this.config = config;
        this.accepted = accepted;
        this.handshakeSlot = handshakeSlot;
        session = accepted ? UcxSession.accepted(this) : new UcxSession(this, false);
        if (accepted) {
            setup.start();
        }
    }

    public UcxSession session() {
        return session;
    }

    /** A client's connect promise and its deadline. */
    public UcxConnectAttempt attempt() {
        return attempt;
    }

    boolean isAccepted() {
        return accepted;
    }

    // ---- a client's connect ----

    /** A client's connect to {@code target} starts: {@code close} runs if it times out or is cancelled. */
    public void connecting(ChannelPromise promise, InetSocketAddress target, EventLoop loop, Runnable close) {
        setup.start();
        attempt.start(promise, target, loop, config.connectTimeoutMillis(), this::connectStage, close);
        plainAttempt = config.plainTcpFallback() && tcpDataPathAllowed() && UcxPlainTcpServers.isPlain(target);
    }

    /**
     * Whether this process lets a connection's bytes leave UCX for a plain socket: not with
     * {@code -Dio.github.nettyucx.tcpDataPath=never}, which plain TCP fallback never overrides.
     */
    private static boolean tcpDataPathAllowed() {
        return (UcxDataPathPolicy.localFlags() & UcxDataPathPolicy.FLAG_ACCEPTS) != 0;
    }

    /** Why a connect with {@code UcxChannelOption.PLAIN_TCP_FALLBACK} did not fall back; empty where it may. */
    String fallbackRefusedHint() {
        if (!config.plainTcpFallback() || tcpDataPathAllowed()) {
            return "";
        }
        return " (PLAIN_TCP_FALLBACK was not used: this process has the TCP data path off, "
                + "-Dio.github.nettyucx.tcpDataPath=never, so no connection goes plain TCP; to reach servers that do "
                + "not speak netty-ucx, set -Dio.github.nettyucx.tcpDataPath=auto)";
    }

    /**
     * Where a connect that timed out stood, for its message: a server that accepted the TCP connection but never
     * answered with a hello most likely does not speak netty-ucx (an HTTP server waits for a whole request line).
     */
    private String connectStage() {
        if (!session.isTcpConnected()) {
            return "";
        }
        return config.plainTcpFallback() ? " (connected; no netty-ucx hello came)"
                : " (connected, but no netty-ucx hello came: the server may not speak netty-ucx; to reach such "
                + "servers set UcxChannelOption.PLAIN_TCP_FALLBACK)";
    }

    /**
     * The client's TCP connection is made. Returns false when this connect is plain TCP (the server is known not
     * to speak netty-ucx): nothing is sent. Otherwise our intro goes out at once, since a server takes a client
     * that stays silent for long for plain TCP; the connection's memory is set up only once the server answered
     * as a netty-ucx server.
     */
    public boolean tcpConnected() throws IOException {
        session.tcpConnected();
        if (plainAttempt) {
            session.plainServer();
            return false;
        }
        startTrustExchange();
        host.send(UcxHandshake.encodeClientIntro(trust.ownNonce(), trust.ownKeyIds()));
        host.flush();
        if (config.plainTcpFallback()) {
            int generation = ++fallbackGeneration;
            host.schedule(() -> {
                if (generation != fallbackGeneration || !fallbackCandidate()) {
                    return;
                }
                String why = "no netty-ucx intro within " + FALLBACK_HELLO_MILLIS + " ms";
                if (tcpDataPathAllowed()) {
                    host.fallBack(why);
                } else {
                    // The connect would otherwise wait for its timeout, for a server that most likely never answers.
                    host.abort(new IOException(why));
                }
            }, FALLBACK_HELLO_MILLIS);
        }
        return true;
    }

    /**
     * True when a failed handshake may start over as plain TCP instead of failing the connect: the server sent bytes
     * that are not a netty-ucx intro, or nothing within the fallback deadline. Never where the TCP data path is off.
     */
    public boolean mayFallBack() {
        return fallbackCandidate() && tcpDataPathAllowed();
    }

    /** What a failed connect's message adds when the peer vanished (closed, reset) before a fallback could. */
    public String vanishedHint() {
        if (!session.isTcpConnected() || !fallbackCandidate()) {
            return "";
        }
        if (!tcpDataPathAllowed()) {
            return fallbackRefusedHint();
        }
        return " (the server closed before its netty-ucx intro: PLAIN_TCP_FALLBACK does not take that for a server "
                + "that does not speak netty-ucx, since a netty-ucx server that sheds or times out a handshake closes "
                + "so too; connect again, or connect to servers that close at once with a plain TCP transport)";
    }

    private boolean fallbackCandidate() {
        return config.plainTcpFallback() && attempt.isPending() && !plainAttempt && !serverSpokeNettyUcx
                && !session.isEstablished() && host.isOpen();
    }

    /**
     * The server did not answer as a netty-ucx server ({@code why}): it is remembered, and the connect starts over
     * as plain TCP with a new session (the channel drops the connection and its socket). Returns the target.
     */
    public InetSocketAddress startOverAsPlain(String why) {
        InetSocketAddress target = attempt.target();
        // A downgrade: said and counted, since an attacker on the path could cause it too (docs/security.md).
        logger.info("{} did not answer as a netty-ucx server ({}): connecting again as plain TCP, and so for the next "
                + "{} ms (UcxChannelOption.PLAIN_TCP_FALLBACK)", target, why, UcxPlainTcpServers.rememberMillis());
        PLAIN_TCP_FALLBACKS.increment();
        UcxPlainTcpServers.remember(target);
        session = new UcxSession(this, false);
        endpoint = null;
        trust = null;
        // A fallback deadline still armed belongs to the attempt that ended.
        fallbackGeneration++;
        plainAttempt = true;
        peerHelloSeen = false;
        setup.startingOver();
        return target;
    }

    /** Why a client's handshake failed, as its connect failure. */
    public ConnectException handshakeFailed(ProtocolException e) {
        return new ConnectException("handshake with " + attempt.target() + " failed: " + e.getMessage()
                + (config.plainTcpFallback() ? fallbackRefusedHint()
                : " (to reach servers that do not speak netty-ucx, set UcxChannelOption.PLAIN_TCP_FALLBACK)"));
    }

    // ---- an accepted connection ----

    /**
     * An accepted channel is registered: its challenge is ready, its peer has
     * {@code UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS} to finish the handshake, and a client that sends nothing for
     * {@code UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS} is plain TCP. Nothing is sent before the client's first bytes
     * tell what it speaks.
     */
    public void acceptedRegistered() {
        if (shed) {
            closeIfShed();
            return;
        }
        if (trust == null) {
            startTrustExchange();
        }
        int timeoutMillis = config.handshakeTimeoutMillis();
        // Never unbounded (the option is positive): a client that stops halfway would hold its slot, its socket
        // and maybe a UCX connection for as long as it likes.
        attempt.acceptedDeadline(host.schedule(() -> {
            if (host.isOpen() && !host.isActive()) {
                PEER_WARNINGS.warn("{} closed: the peer did not complete the netty-ucx handshake within {} ms "
                        + "(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS)", host, timeoutMillis);
                setup.failing(SetupFailure.TIMEOUT,
                        "no netty-ucx handshake within " + timeoutMillis + " ms");
                host.close();
            }
        }, timeoutMillis));
        int waitMillis = config.clientBytesWaitMillis();
        if (waitMillis > 0) {
            clientSilenceCheck = host.schedule(host::clientSilent, waitMillis);
        }
    }

    /** The server shed this accepted handshake to admit another: any thread; the loop closes it. */
    public void shed() {
        shed = true;
    }

    /** On the loop: closes this accepted channel if its handshake was shed and it is not active yet. */
    public void closeIfShed() {
        if (shed && host.isOpen() && !host.isActive()) {
            setup.failing(SetupFailure.REFUSED,
                    "shed: the server had as many handshakes pending as it allows");
            host.close();
        }
    }

    /** The client does not speak netty-ucx: plain TCP, starting with the bytes that told us so; nothing was sent. */
    @Override
    public void plainClient(ByteBuffer firstBytes) throws IOException {
        if (!firstBytes.hasRemaining()) {
            // A netty-ucx client whose intro is late beyond the wait would be downgraded: said and counted.
            SILENT_CLIENTS_PLAIN.increment();
            SILENT_CLIENTS.info("{} sent nothing for {} ms: served as plain TCP (a netty-ucx client sends its intro "
                    + "at once; UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS)", host, config.clientBytesWaitMillis());
        }
        if (logger.isDebugEnabled()) {
            logger.debug("{} is plain TCP: its first bytes are 0x{}, not a netty-ucx hello", host,
                    UcxHandshake.magicSeen(firstBytes));
        }
        host.startPlain();
    }

    // ---- the handshake ----

    /** This side's challenge, and the side channel's keepalive, which tells a vanished host from a quiet one. */
    private void startTrustExchange() {
        trust = new UcxTrustExchange(config.trust(), accepted);
        session.ownNonce(trust.ownNonce());
        host.keepAlive();
    }

    /**
     * A server answers the client's challenge with its own and its proof; a client checks the server's proof (or
     * the other rules of its {@link UcxTrust}), creates its connection and sends its hello, which tells whether it
     * trusts the server. No worker address goes out here.
     */
    @Override
    public void introReceived(UcxHandshake.Intro intro) throws IOException {
        trust.peerNonce(intro.nonce);
        serverSpokeNettyUcx = !accepted;
        if (accepted) {
            // The server proves only with a key the client named (rotation: the one both hold).
            trust.peerKeyIds(intro.keyIds);
            host.send(UcxHandshake.encodeServerIntro(trust.ownNonce(), trust.proof()));
            host.flush();
            return;
        }
        boolean trusted = trust.trusts(host.remoteAddress(), intro.proof, host::peerUid);
        ourFlags = UcxDataPathPolicy.localFlags() | (trusted ? UcxDataPathPolicy.FLAG_TRUSTS : 0);
        endpoint = host.newEndpoint();
        host.send(ourHello(trust.proof()));
        host.flush();
        if (trusted) {
            host.expectAddress();
        }
    }

    private ByteBuffer ourHello(byte[] proof) {
        ByteBuffer hello = UcxHandshake.encodeHello(ourFlags, endpoint.id, endpoint.tagSecret,
                endpoint.messageKey, endpoint.recvWindow, endpoint.recvUnit, trust.hostProof(),
                host.ownerKey().publicKey(), proof);
        ourHelloBody = UcxHandshake.helloBody(hello);
        return hello;
    }

    @Override
    public byte[] expectedPeerHostProof() {
        return trust.expectedPeerHostProof();
    }

    /**
     * The data path both sides choose from the two hellos. A server decides here whether it trusts the client and
     * answers with its hello; both send their worker address only when the choice is UCX, which needs the trust of
     * both.
     */
    @Override
    public boolean helloReceived(UcxHandshake.Hello hello) throws IOException {
        if (accepted) {
            // The same-user rule needs the client's proof that it runs on this host, not only its socket's owner.
            boolean trusted = trust.trusts(host.remoteAddress(), hello.proof,
                    () -> hello.sameHost() ? host.peerUid() : -1);
            ourFlags = UcxDataPathPolicy.localFlags() | (trusted ? UcxDataPathPolicy.FLAG_TRUSTS : 0);
        }
        peerFlags = hello.flags;
        peerOwnerKey = hello.ownerKey;
        peerHelloSeen = true;
        if (!accepted) {
            trust.checkSameUserOnSameHost(hello);
        }
        UcxDataPathPolicy.Choice choice = UcxDataPathPolicy.choose(ourFlags, hello.flags, hello.sameHost());
        if (choice == UcxDataPathPolicy.Choice.NONE) {
            throw refused();
        }
        if (choice == UcxDataPathPolicy.Choice.UCX) {
            if (accepted) {
                endpoint = host.newEndpoint();
                host.send(ourHello(null));
                sendOurAddress();
            }
            host.expectAddress();
            host.flush();
            return true;
        }
        if (accepted) {
            // The TCP data path carries no UCX message: a peer that gets no UCX costs no native connection.
            host.send(helloWithoutConnection());
        }
        host.flush();
        if ((ourFlags & hello.flags & UcxDataPathPolicy.FLAG_TRUSTS) == 0) {
            logger.debug("{}: the peers do not both trust each other ({} trusts by: {}); TCP data path", host,
                    accepted ? "the server" : "the client", trust.rules());
        }
        host.connectDataPath(choice, hello);
        return false;
    }

    /**
     * No data path both sides accept: a server sends its hello all the same, so that the client reaches the same
     * verdict and says why, instead of seeing a connection reset.
     */
    private ProtocolException refused() throws IOException {
        boolean trusted = (ourFlags & peerFlags & UcxDataPathPolicy.FLAG_TRUSTS) != 0;
        setup.failing(trusted ? SetupFailure.NO_TRANSPORT
                : SetupFailure.UNTRUSTED, null);
        if (accepted) {
            host.send(helloWithoutConnection());
            host.flush();
        }
        return new ProtocolException(trusted ? noCommonTransport() : untrustedWithoutTcpDataPath());
    }

    private String noCommonTransport() {
        return "UCX has no transport that reaches the peer, and " + ((ourFlags & UcxDataPathPolicy.FLAG_ACCEPTS) == 0
                ? "this side" : "the peer") + " has the TCP data path off (-Dio.github.nettyucx.tcpDataPath=never); "
                + "UCX's own tcp transport is opened only with tcpDataPath=never (docs/security.md): set the same "
                + "tcpDataPath on both sides";
    }

    private ByteBuffer helloWithoutConnection() {
        return UcxHandshake.encodeHello(ourFlags, NO_CONNECTION_ID, 0, 0, config.recvWindow(), config.recvUnit(),
                trust.hostProof(), host.ownerKey().publicKey(), null);
    }

    private String untrustedWithoutTcpDataPath() {
        boolean weTrust = (ourFlags & UcxDataPathPolicy.FLAG_TRUSTS) != 0;
        return (weTrust ? "the peer does not trust this side" : "this side does not trust the peer (trusted: "
                + trust.rules() + ")") + " with UCX, and "
                + ((ourFlags & UcxDataPathPolicy.FLAG_ACCEPTS) == 0 ? "this side" : "the peer")
                + " has the TCP data path off (-Dio.github.nettyucx.tcpDataPath=never); set UcxChannelOption.TRUST "
                + "or -Dio.github.nettyucx.trust on both sides (docs/security.md)";
    }

    /**
     * Our worker address, with its MAC and the proof that we hold our owner key: a server's follows its hello, a
     * client's the server's address.
     */
    private void sendOurAddress() throws IOException {
        byte[] address = host.workerAddress();
        host.send(UcxHandshake.encodeAddress(address, trust.addressMac(ourHelloBody, address),
                trust.ownershipMac(host.ownerKey().secretWith(peerOwnerKey), address)));
    }

    /**
     * The peer's worker address arrived: connect over UCX, within a deadline, if it is the one the peer sent. A
     * client sends its own only now, once the server's address and hello proved to be the server's.
     */
    @Override
    public void addressReceived(UcxHandshake.Hello hello) throws IOException {
        trust.checkAddress(hello);
        trust.checkOwnership(host.ownerKey().secretWith(hello.ownerKey), hello);
        byte[] ownAddress = host.workerAddress();
        UcxHandshake.checkWorkerAddress(hello.workerAddress, ownAddress);
        if (hello.connectionId == endpoint.id && Arrays.equals(hello.workerAddress, ownAddress)) {
            // A peer that sends our own hello back, taken for a peer, would connect us to ourselves.
            throw new ProtocolException("not a netty-ucx peer (it sent our own hello back)");
        }
        if (!accepted) {
            sendOurAddress();
            host.flush();
        }
        host.connectDataPath(UcxDataPathPolicy.Choice.UCX, hello);
        session.boundPeerInFlight(endpoint.recvWindow);
        scheduleEndpointDeadline();
    }

    /**
     * UCX sets an endpoint up in the worker's progress (its tcp transport connects without blocking): one whose
     * peer's address leads nowhere would otherwise wait for UCX's own error handling. The channel's connect timeout
     * bounds it, though never below {@link #MIN_ENDPOINT_SETUP_MILLIS}, so that a short connect timeout (meant for
     * TCP's connect) does not fail a healthy endpoint on a busy machine: one not wired up by then fails the
     * connection. The endpoint is looked at every {@link #ENDPOINT_CHECK_MILLIS} rather than once at the deadline,
     * so that the check leaves the loop's schedule once the endpoint is up: while a task is scheduled, every turn of
     * the loop reads the clock for it (Netty's {@code canBlock}), a round trip's spin included.
     */
    private void scheduleEndpointDeadline() {
        int connectTimeout = config.connectTimeoutMillis();
        if (connectTimeout <= 0) {
            return;
        }
        int timeoutMillis = Math.max(connectTimeout, MIN_ENDPOINT_SETUP_MILLIS);
        checkEndpointIn(endpoint, (timeoutMillis + ENDPOINT_CHECK_MILLIS - 1) / ENDPOINT_CHECK_MILLIS, timeoutMillis);
    }

    /** Looks at {@code endpointOf} after {@link #ENDPOINT_CHECK_MILLIS}: the last of {@code looksLeft} fails it. */
    private void checkEndpointIn(Endpoint endpointOf, int looksLeft, int timeoutMillis) {
        endpointDeadline = host.schedule(() -> {
            endpointDeadline = null;
            if (!host.isOpen() || endpoint != endpointOf || !host.endpointWiringUp()) {
                return;
            }
            if (looksLeft > 1) {
                checkEndpointIn(endpointOf, looksLeft - 1, timeoutMillis);
                return;
            }
            PEER_WARNINGS.warn("{}: the UCX endpoint to the peer did not come up within {} ms", host, timeoutMillis);
            setup.failing(SetupFailure.TIMEOUT,
                    "the UCX endpoint did not come up within " + timeoutMillis + " ms");
            host.abort(new IOException("the UCX endpoint to the peer did not come up within " + timeoutMillis
                    + " ms (CONNECT_TIMEOUT_MILLIS, at least " + MIN_ENDPOINT_SETUP_MILLIS + "): UCX could not "
                    + "reach the worker address the peer gave"));
        }, ENDPOINT_CHECK_MILLIS);
    }

    // ---- the outcome ----

    /** The data path is up ({@code path}): the handshake is done. */
    public void opened(DataPath path, SocketAddress local, SocketAddress remote) {
        handshakeDone();
        setup.opened(path, accepted, local, remote, trustVerdict());
    }

    /** The setup is failing for {@code reason}; the close that follows reports it. */
    public void failing(SetupFailure reason, String message) {
        setup.failing(reason, message);
    }

    /**
     * The channel closes: a setup still pending has failed, for the reason noted where it failed, or because the
     * connect timed out, or else because this side closed it.
     */
    public void closed(SocketAddress local, SocketAddress remote) {
        handshakeDone();
        // A scheduled task keeps an auto-scaling group from suspending the loop: the check goes with the channel.
        Future<?> deadline = endpointDeadline;
        if (deadline != null) {
            endpointDeadline = null;
            deadline.cancel(false);
        }
        if (setup.isPending()) {
            setup.failed(attempt.timedOut() ? SetupFailure.TIMEOUT
                    : SetupFailure.CLOSED, accepted, local, remote, trustVerdict());
        }
    }

    /**
     * The handshake ended (or never will): the server's count of handshakes in progress goes down, and the look at a
     * silent client leaves the loop's schedule (where it would have the loop read the clock in every turn).
     */
    private void handshakeDone() {
        Runnable slot = handshakeSlot;
        if (slot != null) {
            handshakeSlot = null;
            slot.run();
        }
        Future<?> silence = clientSilenceCheck;
        if (silence != null) {
            clientSilenceCheck = null;
            silence.cancel(false);
        }
    }

    /** Whether each side trusts the other with UCX, from the two hellos; null before the peer's came. */
    String trustVerdict() {
        if (!peerHelloSeen) {
            return null;
        }
        boolean weTrust = (ourFlags & UcxDataPathPolicy.FLAG_TRUSTS) != 0;
        boolean peerTrusts = (peerFlags & UcxDataPathPolicy.FLAG_TRUSTS) != 0;
        if (weTrust) {
            return peerTrusts ? "mutual" : "this side only";
        }
        return peerTrusts ? "peer only" : "none";
    }

    /** Client connects of the process that went plain TCP because the server did not answer as netty-ucx. */
    public static long plainTcpFallbacks() {
        return PLAIN_TCP_FALLBACKS.sum();
    }

    /** Accepted clients of the process that sent nothing in time and were served as plain TCP. */
    public static long silentClientsServedAsPlain() {
        return SILENT_CLIENTS_PLAIN.sum();
    }
}
