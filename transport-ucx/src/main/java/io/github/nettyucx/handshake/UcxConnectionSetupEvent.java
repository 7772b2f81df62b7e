/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JDK Flight Recorder event for each connection's setup, from the client's {@code connect()} or the server's
 * accept to the channel becoming active (or its setup failing): the data path it got, whether each side trusted the
 * other with UCX, and why a setup failed. Enabled by default in a recording (for example
 * {@code -XX:StartFlightRecording}); the transport loads and runs the same where the JVM has no {@code jdk.jfr}
 * module.
 */
@Name(UcxConnectionSetupEvent.NAME)
@Label("UCX Connection Setup")
@Category({"Netty", "UCX"})
@Description("A connection of the netty-ucx transport, from connect or accept to active or failed")
@StackTrace(false)
public final class UcxConnectionSetupEvent extends Event {
    /** The event's name in a recording. */
    public static final String NAME = "io.github.nettyucx.ConnectionSetup";

    @Label("Data Path")
    @Description("UCX, TCP data path or plain TCP; empty when the setup failed")
    String dataPath;

    @Label("Accepted")
    @Description("True on the server's side of the connection")
    boolean accepted;

    @Label("Local Address")
    String localAddress;

    @Label("Remote Address")
    String remoteAddress;

    @Label("Trust")
    @Description("Whether each side trusts the other with UCX: mutual, this side only, peer only, none; empty when no "
            + "hellos were exchanged (plain TCP, or a setup that failed before)")
    String trust;

    @Label("Failure")
    @Description("Why the setup failed (SetupFailure); empty when it succeeded")
    String failure;

    @Label("Message")
    @Description("What the failure said, when there is more to say than its reason")
    String message;

    /** Created by the transport when a connection's setup starts. */
    UcxConnectionSetupEvent() {
    }

    /** An event whose duration starts now, or null when no recording wants it (nothing is kept then). */
    static UcxConnectionSetupEvent started() {
        UcxConnectionSetupEvent event = new UcxConnectionSetupEvent();
        if (!event.isEnabled()) {
            return null;
        }
        event.begin();
        return event;
    }

    /** Ends the duration and commits the event with what the setup came to, if the recording keeps it. */
    void finish(String dataPath, String failure, String message, boolean accepted, String localAddress,
                String remoteAddress, String trust) {
        end();
        if (!shouldCommit()) {
            return;
        }
        this.dataPath = dataPath;
        this.failure = failure;
        this.message = message;
        this.accepted = accepted;
        this.localAddress = localAddress;
        this.remoteAddress = remoteAddress;
        this.trust = trust;
        commit();
    }
}
