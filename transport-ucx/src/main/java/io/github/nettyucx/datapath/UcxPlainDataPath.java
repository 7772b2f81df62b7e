/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.handshake.DataPath;
import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxRecordLink;
import io.github.nettyucx.loop.UcxIoOps;
import io.github.nettyucx.loop.UcxLoopSeat;
import io.github.nettyucx.loop.UcxPlainGather;
import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxBytes;
import io.github.nettyucx.jni.UcxFd;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.function.Consumer;

/**
 * The data path of a connection whose bytes travel as plain TCP on the channel's own socket, driven as Netty's epoll
 * transport drives one: a peer that does not speak netty-ucx, or a netty-ucx peer whose hellos chose TCP (the TCP
 * data path, {@link UcxDataPathPolicy}), which then sends no more than the hellos ahead of the application's bytes.
 * The socket stays in the event loop's epoll set (level-triggered), watched for input while the channel wants to
 * read and for output while a write waits for room. Bytes arrive straight into the pipeline's buffers
 * ({@link #read}, {@link UcxFd#read}) and leave with one sendmsg over the flushed buffers ({@link #write},
 * {@link UcxPlainGather}); a {@link DefaultFileRegion}'s bytes go from its file with sendfile. There are no slots and
 * no native connection: an idle plain connection costs its socket only. Side-channel records become what a TCP
 * socket does instead: output shut down is shutdown(SHUT_WR), a reset is SO_LINGER 0 before the close. Used on the
 * event loop only.
 */
public final class UcxPlainDataPath implements UcxLink, UcxRecordLink, UcxInput {
    private static final long BLOCKED = -1;
    private static final long NOTHING = -2;

    private final UcxFd fd;
    /** A peer that does not speak netty-ucx, or the TCP data path of one that does. */
    private final DataPath kind;
    /** The gather of the loop the channel is registered with. */
    private UcxPlainGather gather;
    private final ChannelConfig config;
    private final Consumer<UcxIoOps> interest;
    private final Runnable retryWrite;
    private final SocketWriter socketWriter = new SocketWriter();
    /** What the handshake read before it knew the peer was plain: the first bytes the channel reads. */
    private ByteBuffer firstBytes;
    /**
     * The end of our hello that the socket did not take yet (a peer that reads nothing can leave it so): it goes out
     * before any byte of the application's, and output is shut down only after it ({@link #shutdownAfterUnsent}).
     */
    private ByteBuffer unsent;
    private boolean shutdownAfterUnsent;
    /** Epoll reported input that was not read to the end yet (level-triggered: it reports it again). */
    private boolean readable;
    /** The peer's end of stream (or the error that ended it) is next, or was read. */
    private boolean atEnd;
    /** The error that ended the peer's stream, when {@link #atEnd} came with one. */
    private IOException endFailure;
    /** Epoll reported the peer's hang-up; it is not watched for again (level-triggered, it would report it on). */
    private boolean hungUp;
    private boolean writable = true;
    private boolean readsWanted;
    /** What the loop's epoll watches now; null until the first {@link #watch()}, which always sets it. */
    private UcxIoOps watched;

    /**
     * The channel's socket {@code fd} becomes plain TCP of {@code kind}, starting with {@code firstBytes} to read and
     * {@code unsent} to write (each in read mode and kept, or null); {@link #registered} comes next. {@code interest}
     * sets what the loop's epoll watches of it; {@code retryWrite} calls the write again soon.
     */
    public UcxPlainDataPath(UcxFd fd, DataPath kind, ByteBuffer firstBytes, ByteBuffer unsent,
                     ChannelConfig config, Consumer<UcxIoOps> interest, Runnable retryWrite) {
        this.fd = fd;
        this.kind = kind;
        this.unsent = unsent;
        this.writable = unsent == null;
        this.config = config;
        this.interest = interest;
        this.retryWrite = retryWrite;
        this.firstBytes = firstBytes;
    }

    /**
     * The channel is registered with a loop ({@code seat}), when it turns plain or again after a deregistration
     * (possibly with another loop): that loop's epoll set watches the socket from now on, and writes lay out in its
     * gather. Bytes already waiting are reported by that epoll set, level-triggered. A netty-ucx peer's TCP data
     * path keeps the loop spinning as a UCX connection does; other plain peers do not.
     */
    public void registered(UcxLoopSeat seat) {
        gather = seat.watchPlainSocket(kind == DataPath.TCP_DATA_PATH);
        watched = null;
        watch();
    }

    /** The loop's epoll reported {@code epollEvents} for the socket. */
    public void socketReady(int epollEvents) {
        if ((epollEvents & UcxNative.EPOLLIN) != 0) {
            readable = true;
        }
        if ((epollEvents & (UcxNative.EPOLLOUT | UcxNative.EPOLLHUP | UcxNative.EPOLLERR)) != 0) {
            writable = writeUnsent();
        }
        if ((epollEvents & (UcxNative.EPOLLRDHUP | UcxNative.EPOLLHUP | UcxNative.EPOLLERR)) != 0 && !hungUp
                && !atEnd) {
            peerHungUp();
        }
        watch();
    }

    /**
     * The peer shut its output or the connection ended: as with Netty's epoll transport, the channel learns of it
     * even while it does not read, but only once it has read what came before (UCX peers' ends are the same). When
     * nothing comes before, the end is here now; otherwise reading finds it.
     */
    private void peerHungUp() {
        hungUp = true;
        readable = true;
        if (firstBytes != null) {
            return;
        }
        try {
            atEnd = fd.peek() == 0;
        } catch (IOException e) {
            atEnd = true;
            endFailure = e;
        }
    }

    // ---- input ----

    @Override
    public boolean hasReadable() {
        return firstBytes != null || readable && !atEnd;
    }

    @Override
    public boolean atEnd() {
        return atEnd;
    }

    @Override
    public IOException endFailure() {
        return endFailure;
    }

    @Override
    public ByteBuf readInPlace(int maxBytes) {
        return null;
    }

    @Override
    public int read(ByteBuf dst) throws IOException {
        if (firstBytes != null) {
            int n = Math.min(firstBytes.remaining(), dst.writableBytes());
            dst.writeBytes(firstBytes.duplicate().limit(firstBytes.position() + n));
            firstBytes.position(firstBytes.position() + n);
            if (!firstBytes.hasRemaining()) {
                firstBytes = null;
            }
            return n;
        }
        int room = dst.writableBytes();
        int n;
        if (dst.hasMemoryAddress()) {
            n = fd.read(dst.memoryAddress() + dst.writerIndex(), room);
            if (n > 0) {
                dst.writerIndex(dst.writerIndex() + n);
            }
        } else {
            int asked = Math.min(room, gather.scratchBytes());
            n = fd.read(gather.scratchAddress(), asked);
            if (n > 0) {
                copyFromScratch(dst, n);
            }
            room = asked;
        }
        if (n < 0) {
            atEnd = true;
            watch();
            return -1;
        }
        // A short read took all there was: level-triggered epoll reports what arrives later.
        readable = n == room;
        return n;
    }

    private void copyFromScratch(ByteBuf dst, int n) {
        int writerIndex = dst.writerIndex();
        gather.copyFromScratch(dst, writerIndex, n);
        dst.writerIndex(writerIndex + n);
    }

    @Override
    public void discardReadable() throws IOException {
        firstBytes = null;
        while (!atEnd && readable) {
            int n = fd.read(gather.scratchAddress(), gather.scratchBytes());
            if (n < 0) {
                atEnd = true;
            }
            readable = n > 0;
        }
        watch();
    }

    @Override
    public void readsWanted(boolean wanted) {
        readsWanted = wanted;
        watch();
    }

    /**
     * Watches the socket for input only while the channel reads and the peer's end is not reached, for the peer's
     * hang-up until it came, and for output only while a write waits: level-triggered events that nobody takes
     * would wake the loop without end.
     */
    private void watch() {
        boolean in = readsWanted && !atEnd;
        UcxIoOps wanted = UcxIoOps.of(in, !hungUp && !atEnd, !writable);
        if (wanted != watched) {
            watched = wanted;
            interest.accept(wanted);
        }
    }

    // ---- output ----

    @Override
    public boolean write(ChannelOutboundBuffer in) throws Exception {
        if (!writeUnsent()) {
            writable = false;
            watch();
            return false;
        }
        int spins = config.getWriteSpinCount();
        while (!in.isEmpty()) {
            Object msg = in.current();
            long n = msg instanceof FileRegion ? writeRegion(in, (FileRegion) msg) : writeBuffers(in);
            if (n == BLOCKED) {
                writable = false;
                watch();
                return false;
            }
            if (n == NOTHING || --spins == 0) {
                // A region with no bytes to give now, or the spin count used up: the loop's other work comes first.
                retryWrite.run();
                return false;
            }
        }
        return true;
    }

    /**
     * Writes what is left of our hello, then shuts output down if that waited for it; true when nothing is left. A
     * write error leaves it to the application's next write, which meets the same error.
     */
    private boolean writeUnsent() {
        if (unsent == null) {
            return true;
        }
        try {
            socketWriter.write(unsent);
            if (unsent.hasRemaining()) {
                return false;
            }
            unsent = null;
            if (shutdownAfterUnsent) {
                fd.shutdownWrite();
            }
        } catch (IOException e) {
            unsent = null;
        }
        return true;
    }

    /** Writes the flushed buffers up to the next region; returns the bytes written, or {@link #BLOCKED}. */
    private long writeBuffers(ChannelOutboundBuffer in) throws Exception {
        gather.reset();
        in.forEachFlushedMessage(gather);
        long offered = gather.bytes();
        if (offered == 0) {
            // Only empty buffers: they are done.
            in.removeBytes(0);
            return 0;
        }
        long n = fd.writev(gather.iovAddress(), gather.entries());
        in.removeBytes(n);
        return n < offered ? BLOCKED : n;
    }

    /** Writes the region's next bytes; returns how many, {@link #BLOCKED}, or {@link #NOTHING} when it gave none. */
    private long writeRegion(ChannelOutboundBuffer in, FileRegion region) throws Exception {
        long left = region.count() - region.transferred();
        long n = left <= 0 ? 0 : DefaultFileRegionSendfile.accepts(region) ? sendFile((DefaultFileRegion) region, left)
                : UcxNative.SEND_FILE_DECLINED;
        if (n == UcxNative.SEND_FILE_DECLINED) {
            socketWriter.startRegion();
            n = region.transferTo(socketWriter, region.transferred());
            if (n == 0) {
                return socketWriter.blocked() ? BLOCKED : NOTHING;
            }
        } else if (n == 0 && left > 0) {
            return BLOCKED;
        }
        if (n > 0) {
            in.progress(n);
        }
        if (region.transferred() >= region.count()) {
            in.remove();
        }
        return n;
    }

    private long sendFile(DefaultFileRegion region, long left) throws IOException {
        DefaultFileRegionReader.open(region);
        long n = fd.sendFile(region, region.position() + region.transferred(), left);
        if (n > 0) {
            DefaultFileRegionReader.addTransferred(region, n);
        }
        return n;
    }

    @Override
    public boolean canSend() {
        return writable;
    }

    // ---- the link ----

    @Override
    public UcxInput input() {
        return this;
    }

    /** None: plain TCP has no messages. */
    @Override
    public UcxConnection connection() {
        return null;
    }

    @Override
    public DataPath kind() {
        return kind;
    }

    @Override
    public String lanes() {
        return toString();
    }

    // ---- records ----

    @Override
    public UcxRecordLink records() {
        return this;
    }

    /** Plain TCP has no records: the write half of the socket is shut, once our hello is all out. */
    @Override
    public boolean sendShutdownOutput(int messagesSent) throws IOException {
        if (writeUnsent()) {
            fd.shutdownWrite();
        } else {
            shutdownAfterUnsent = true;
        }
        return true;
    }

    /** Plain TCP has no records: a reset is the socket's own close with {@code SO_LINGER} 0. */
    @Override
    public void sendClose(int messagesSent, boolean reset) throws IOException {
        if (reset) {
            fd.resetOnClose();
        }
    }

    /** The peer's end arrives as the end of the input ({@link #read}), not as a record. */
    @Override
    public boolean receiveRecords() {
        return true;
    }

    @Override
    public String toString() {
        return kind.label();
    }

    /** What a FileRegion other than a {@link DefaultFileRegion} writes itself into: the socket. */
    private final class SocketWriter implements WritableByteChannel {
        /** The socket buffer was full: the region's write waits for room. */
        private boolean blocked;

        /** A region's write through this writer starts. */
        void startRegion() {
            blocked = false;
        }

        boolean blocked() {
            return blocked;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int total = 0;
            while (src.hasRemaining()) {
                int n;
                if (src.isDirect()) {
                    n = fd.write(UcxBytes.address(src) + src.position(), src.remaining());
                } else {
                    int chunk = Math.min(src.remaining(), gather.scratchBytes());
                    int limit = src.limit();
                    int position = src.position();
                    gather.scratch(chunk).put(src.limit(position + chunk));
                    src.limit(limit).position(position);
                    n = fd.write(gather.scratchAddress(), chunk);
                }
                if (n == 0) {
                    blocked = true;
                    break;
                }
                src.position(src.position() + n);
                total += n;
            }
            return total;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // The socket is the channel's.
        }
    }
}
