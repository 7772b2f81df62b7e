/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.github.nettyucx.buffer.UcxOutOfMemoryError;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UCX-registered memory ({@link UcxByteBufAllocator}) running out, in a child JVM ({@link RegisteredMemoryPeer})
 * whose channels use it as their allocator. The child's address space is capped while it runs
 * ({@code prlimit --as}, the limit {@code ulimit -v} sets), {@value #HEADROOM_MIB} MiB above what it has mapped,
 * so the allocator's next regions cannot be mapped. Then:
 * <ul>
 *   <li>allocating directly fails with a {@link UcxOutOfMemoryError} that names the size and the cause;</li>
 *   <li>an echo connection whose reader does not read makes the child hold copies until the allocator fails:
 *       that connection gets the error and is closed, the others keep working and a new one can be made;</li>
 *   <li>every buffer goes back (the allocator's active memory, native connections and descriptors return to
 *       where they were), and once the limit is lifted large allocations work again. The child never crashes.</li>
 * </ul>
 * Registration itself ({@code ucp_mem_map}) cannot be made to fail on a host without RDMA devices: none of
 * UCX's memory domains here pins memory, and an address-space limit makes the mmap fail first.
 */
class RegisteredMemoryFailureTest {
    private static final int HEADROOM_MIB = 32;
    private static final int ECHO_BYTES = 1 << 20;
    private static final int CHUNK = 64 * 1024;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void registeredMemoryRunningOutFailsOnlyTheConnectionThatNeedsIt() throws Exception {
        TestTransport.UCX.assumeAvailable();
        Assumptions.assumeTrue(run("prlimit", "--version") == 0, "prlimit (util-linux) is not installed");
        EventLoopGroup group = TestTransport.UCX.newGroup(1);
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "registered-echo-server", "127.0.0.1")) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1",
                    Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT)));
            Channel healthy = connect(group, address, new ChannelInboundHandlerAdapter());
            echo(healthy, 1);
            String before = memory(peer);
            long limit = (RegisteredMemoryPeer.field(before, "vmsize") + HEADROOM_MIB * 1024L) * 1024;
            assertEquals(0, run("prlimit", "--pid", Long.toString(peer.pid()), "--as=" + limit + ":"),
                    "prlimit failed");
            System.out.println("registered memory: child address space capped at " + (limit >> 20) + " MiB ("
                    + HEADROOM_MIB + " MiB above its size); before: " + before);

            String direct = command(peer, RegisteredMemoryPeer.ALLOC + (64 << 20));
            System.out.println("registered memory: allocating 64 MiB directly: " + direct);
            assertTrue(direct.startsWith(RegisteredMemoryPeer.ALLOC + "failed "
                    + UcxOutOfMemoryError.class.getName()) && direct.contains("mmap"), direct);

            Flood flood = new Flood();
            long floodStart = System.nanoTime();
            Channel flooding = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.AUTO_READ, false).handler(flood).connect(address).sync().channel();
            String exception = peer.awaitLine(ReliabilityPeer.EXCEPTION, 60);
            String closed = peer.awaitLine(ReliabilityPeer.INACTIVE, 30);
            long floodMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - floodStart);
            // Our end learns of the close only once it reads: with reading off, UCX writes waiting for the closed
            // peer's credits wait for ever (bug 10, WriterToClosedPeerTest), where TCP would fail them.
            flooding.config().setAutoRead(true);
            assertTrue(flooding.closeFuture().await(30, TimeUnit.SECONDS),
                    "the connection whose allocation failed was not closed; child output:\n" + peer.output());
            System.out.println("registered memory: a connection whose reader does not read, after "
                    + (flood.written.get() >> 20) + " MiB sent: child says " + exception + ", then " + closed
                    + " (" + floodMillis + " ms after the connection started)");
            assertTrue(exception.contains(UcxOutOfMemoryError.class.getSimpleName()), exception);

            echo(healthy, 2);
            Channel later = connect(group, address, new ChannelInboundHandlerAdapter());
            echo(later, 3);
            later.close().sync();
            String after = awaitMemory(peer, before);
            System.out.println("registered memory: the other connection and a new one echoed intact; after: " + after);
            for (String field : new String[] {"active", "connections", "fds"}) {
                assertEquals(RegisteredMemoryPeer.field(before, field), RegisteredMemoryPeer.field(after, field),
                        field + " did not return: before {" + before + "}, after {" + after + "}");
            }

            assertEquals(0, run("prlimit", "--pid", Long.toString(peer.pid()), "--as=unlimited:"),
                    "lifting the limit failed");
            String lifted = command(peer, RegisteredMemoryPeer.ALLOC + (64 << 20));
            assertEquals(RegisteredMemoryPeer.ALLOC + "ok", lifted, "after the limit was lifted");
            echo(healthy, 4);
            healthy.close().sync();
            assertTrue(peer.isAlive(), "the child died; output:\n" + peer.output());
            assertFalse(Files.exists(Paths.get("hs_err_pid" + peer.pid() + ".log")), "the child crashed");
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    private static Channel connect(EventLoopGroup group, InetSocketAddress address, ChannelHandler handler)
            throws InterruptedException {
        return new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000).handler(handler).connect(address).sync()
                .channel();
    }

    /** Echoes {@value #ECHO_BYTES} bytes of a {@link DataStream} over {@code ch} and checks every byte back. */
    private static void echo(Channel ch, long seed) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        DataStream expected = new DataStream(seed);
        ch.pipeline().addLast("check", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                try {
                    String error = expected.check(buf);
                    if (error != null) {
                        done.completeExceptionally(new AssertionError("corrupt echo: " + error));
                    } else if (expected.position() == ECHO_BYTES) {
                        done.complete(null);
                    }
                } finally {
                    buf.release();
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                done.completeExceptionally(new AssertionError("closed after " + expected.position() + " bytes"));
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                done.completeExceptionally(cause);
            }
        });
        try {
            DataStream sent = new DataStream(seed);
            for (int n = 0; n < ECHO_BYTES; n += CHUNK) {
                ByteBuf chunk = ch.alloc().buffer(CHUNK);
                sent.writeTo(chunk, CHUNK);
                ch.write(chunk);
            }
            ch.flush();
            done.get(30, TimeUnit.SECONDS);
        } finally {
            ch.pipeline().remove("check");
        }
    }

    private static String command(ChildJvm peer, String command) throws IOException, InterruptedException {
        peer.send(command);
        return peer.awaitLine(command.split(" ")[0] + " ", 30);
    }

    private static String memory(ChildJvm peer) throws IOException, InterruptedException {
        return command(peer, RegisteredMemoryPeer.MEMORY.trim());
    }

    /** Native connections are freed a little after their channels closed: asks until they are, up to 15 s. */
    private static String awaitMemory(ChildJvm peer, String before) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        String now = memory(peer);
        while (System.nanoTime() < deadline && (RegisteredMemoryPeer.field(now, "connections")
                != RegisteredMemoryPeer.field(before, "connections")
                || RegisteredMemoryPeer.field(now, "active") != RegisteredMemoryPeer.field(before, "active"))) {
            Thread.sleep(100);
            now = memory(peer);
        }
        return now;
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return -1; // not installed
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        if (p.exitValue() != 0) {
            System.out.println(String.join(" ", command) + ": " + out.trim());
        }
        return p.exitValue();
    }
}
