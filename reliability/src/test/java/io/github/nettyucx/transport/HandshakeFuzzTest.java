/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing (Jazzer) of the side-channel hello parser, {@link UcxHandshake#decodeHello}, the only
 * part of the transport that parses bytes from an unauthenticated peer without I/O around it. (The record
 * parser lives inside the channel's unsafe and is covered by {@link HostileSideChannelTest}.)
 * <p>
 * By default the inputs in {@code HandshakeFuzzTestInputs/decodeHello} (seeds and any crash reproducers) are
 * replayed as regression tests. {@code -Djazzer.fuzz=true} (the long suite's fuzz command, see
 * docs/reliability.md) fuzzes for the time given by {@code maxDuration}.
 */
class HandshakeFuzzTest {

    /**
     * Whatever the bytes: the parser either asks for more (consuming nothing), refuses them with a
     * {@link ProtocolException}, or returns a hello whose fields are within their limits and that consumed
     * exactly its own length. Any other exception is a bug. Feeding the same bytes in two pieces must give the
     * same outcome as feeding them at once (the side channel delivers arbitrary pieces).
     */
    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // fuzzing mode runs for maxDuration in one invocation
    void decodeHello(byte[] data) {
        Outcome whole = decode(ByteBuffer.wrap(data));
        if (data.length > 1) {
            int split = Math.floorMod(data[0] * 31 + data.length, data.length);
            Outcome prefix = decode(ByteBuffer.wrap(data, 0, split).slice());
            if (prefix.hello != null) {
                assertNotNull(whole.hello, "a prefix decoded to a hello but the whole input did not");
                assertArrayEquals(prefix.hello.workerAddress, whole.hello.workerAddress);
            } else if (prefix.refusal != null) {
                assertNotNull(whole.refusal, "a prefix was refused but the whole input was not: " + prefix.refusal);
            }
        }
    }

    private static Outcome decode(ByteBuffer in) {
        int start = in.position();
        try {
            UcxHandshake.Hello hello = UcxHandshake.decodeHello(in);
            if (hello == null) {
                assertEquals(start, in.position(), "bytes consumed although more were needed");
                return new Outcome(null, null);
            }
            assertTrue(hello.workerAddress.length > 0 && hello.workerAddress.length <= UcxHandshake.MAX_WORKER_ADDRESS,
                    "worker address length " + hello.workerAddress.length);
            assertTrue(hello.recvWindow > 0 && hello.recvUnit > 0,
                    "window " + hello.recvWindow + " x " + hello.recvUnit);
            assertEquals(16, hello.bootId.length);
            assertEquals(UcxHandshake.HELLO_HEADER_BYTES + hello.workerAddress.length, in.position() - start,
                    "a hello must consume exactly its own bytes");
            return new Outcome(hello, null);
        } catch (ProtocolException e) {
            return new Outcome(null, e);
        }
    }

    private static final class Outcome {
        final UcxHandshake.Hello hello;
        final ProtocolException refusal;

        Outcome(UcxHandshake.Hello hello, ProtocolException refusal) {
            this.hello = hello;
            this.refusal = refusal;
        }

    }
}
