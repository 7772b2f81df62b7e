/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.github.nettyucx.jni.UcxFd;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

/**
 * Whether a {@link DefaultFileRegion}'s bytes can leave a plain TCP connection (the TCP data path, or a peer that
 * does not speak netty-ucx) by sendfile(2), from its file to the socket with no copy through this process, as on
 * Netty's epoll transport. The native library needs the region's file descriptor, which it reads from private fields
 * of the region and the JDK ({@code ucx_file_region.c}), and this side needs to count the bytes as transferred
 * ({@link DefaultFileRegionReader}). Where either is out of reach (another Netty or JDK release), the region writes
 * itself to the socket through its {@code transferTo}, and that is logged once, at debug.
 */
final class DefaultFileRegionSendfile {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(DefaultFileRegionSendfile.class);
    private static final boolean AVAILABLE = check();

    private DefaultFileRegionSendfile() {
    }

    private static boolean check() {
        boolean available = UcxFd.sendFileReachesRegions() && DefaultFileRegionReader.available();
        if (!available) {
            logger.debug("DefaultFileRegions are copied on the TCP data path, not sent with sendfile: the native "
                    + "library cannot reach their file descriptor, or this side their transferred count");
        }
        return available;
    }

    /** True for a {@link DefaultFileRegion} itself (a subclass may transfer its bytes its own way) where it can go. */
    static boolean accepts(FileRegion region) {
        return AVAILABLE && DefaultFileRegionReader.accepts(region);
    }
}
