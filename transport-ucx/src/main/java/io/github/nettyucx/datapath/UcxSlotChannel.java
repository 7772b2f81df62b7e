/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.datapath;

import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A {@link WritableByteChannel} over a window of the send area, for {@link FileRegion#transferTo}: it takes
 * what fits and reports how much it took, as a socket with a full buffer does. One per {@link UcxConnection},
 * created with its first region and reused.
 */
final class UcxSlotChannel implements WritableByteChannel {
    private final ByteBuffer area;
    private int start;
    private int offset;
    private int end;

    UcxSlotChannel(ByteBuffer area) {
        this.area = area;
    }

    void reset(int offset, int room) {
        this.start = offset;
        this.offset = offset;
        this.end = offset + room;
    }

    boolean hasRoom() {
        return offset < end;
    }

    int written() {
        return offset - start;
    }

    /** Reads the region's next bytes from its file into the window ({@link DefaultFileRegionReader}). */
    int readFrom(DefaultFileRegion region) throws IOException {
        area.limit(end).position(offset);
        int n = DefaultFileRegionReader.read(region, area);
        offset += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) {
        int n = Math.min(src.remaining(), end - offset);
        if (n <= 0) {
            return 0;
        }
        int srcLimit = src.limit();
        src.limit(src.position() + n);
        area.limit(offset + n).position(offset);
        area.put(src);
        src.limit(srcLimit);
        offset += n;
        return n;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {
        // The slot memory belongs to the connection.
    }
}
