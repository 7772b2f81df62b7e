/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a {@link DefaultFileRegion}'s file straight into send-slot memory: one positioned read into a direct
 * buffer over the slot. Its {@link DefaultFileRegion#transferTo} into a channel that is neither a socket nor a
 * file takes the JDK's slow way instead, a fresh 8 KiB heap buffer per call and a read and two copies per
 * 8 KiB. The region offers no public way to its {@link FileChannel} or to advance its
 * {@link FileRegion#transferred()}, so this reaches its private fields {@code file} and {@code transferred},
 * as Netty's own native transports do (from C). Where they cannot be reached (a Netty release that renamed
 * them), {@link #available()} is false and regions go through {@code transferTo}. The TCP data path, which sends
 * a region's bytes from its file without reading them ({@link DefaultFileRegionSendfile}), counts them here too.
 * Used on the event loop only.
 */
public final class DefaultFileRegionReader {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(DefaultFileRegionReader.class);
    private static final VarHandle FILE;
    private static final VarHandle TRANSFERRED;

    static {
        VarHandle file = null;
        VarHandle transferred = null;
        try {
            MethodHandles.Lookup lookup =
                    MethodHandles.privateLookupIn(DefaultFileRegion.class, MethodHandles.lookup());
            file = lookup.findVarHandle(DefaultFileRegion.class, "file", FileChannel.class);
            transferred = lookup.findVarHandle(DefaultFileRegion.class, "transferred", long.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            logger.debug("DefaultFileRegions are read through transferTo: their fields are out of reach", e);
            file = null;
            transferred = null;
        }
        FILE = file;
        TRANSFERRED = transferred;
    }

    private DefaultFileRegionReader() {
    }

    public static boolean available() {
        return TRANSFERRED != null;
    }

    /** True for a {@link DefaultFileRegion} itself (a subclass may transfer its bytes its own way). */
    static boolean accepts(FileRegion region) {
        return region.getClass() == DefaultFileRegion.class && available();
    }

    /**
     * Reads the region's next bytes at {@code dst}'s position, up to its limit or the region's end, and counts
     * them as transferred. Returns the bytes read (more than 0); throws when the file ends before the region.
     */
    static int read(DefaultFileRegion region, ByteBuffer dst) throws IOException {
        open(region);
        FileChannel file = (FileChannel) FILE.get(region);
        long transferred = region.transferred();
        long left = region.count() - transferred;
        if (left < dst.remaining()) {
            dst.limit(dst.position() + (int) left);
        }
        long at = region.position() + transferred;
        int n = file.read(dst, at);
        if (n <= 0) {
            throw new IOException("the file of a DefaultFileRegion ended before the region: " + file.size()
                    + " bytes, the region ends at byte " + (region.position() + region.count()) + " (read at " + at
                    + ')');
        }
        TRANSFERRED.set(region, transferred + n);
        return n;
    }

    /** Opens the region's file unless it is open; fails on a released region, as its transferTo does. */
    static void open(DefaultFileRegion region) throws IOException {
        if (region.refCnt() == 0) {
            throw new IllegalReferenceCountException(0);
        }
        region.open();
    }

    /** Counts {@code n} more of the region's bytes as transferred: they left another way than {@link #read}. */
    static void addTransferred(DefaultFileRegion region, long n) {
        TRANSFERRED.set(region, region.transferred() + n);
    }
}
