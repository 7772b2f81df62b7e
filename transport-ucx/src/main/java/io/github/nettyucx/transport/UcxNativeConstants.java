/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

/**
 * The values the native library shares with Java, one native method each (ucx_constants.c), as Netty's
 * {@code NativeStaticallyReferencedJniMethods}: the C side is their only definition. Read once, into the
 * constants of {@link UcxNative}; use those. This class has no static state, so that {@code JNI_OnLoad}
 * can register its methods before anything reads them.
 */
final class UcxNativeConstants {
    private UcxNativeConstants() {
    }

    static native int recvPosted();

    static native int recvIdle();

    static native int sendFree();

    static native int sendBusy();

    static native int stateNotified();

    static native int stateError();

    static native int stateCredits();

    static native int stateWiredUp();

    static native int stateHeld();

    static native int stateHeaderWords();

    static native int readyCount();

    static native int readyCapacity();

    static native int readyOverflowed();

    static native int readyHeaderWords();

    static native int createdConn();

    static native int createdState();

    static native int createdSendArea();

    static native int createdId();

    static native int createdSendStride();

    static native int createdTagSecret();

    static native int createdMessageKey();

    static native int createdWords();

    static native int mapAddress();

    static native int mapMemh();

    static native int mapStatus();

    static native int mapWords();

    static native int eventFd();

    static native int eventEvents();

    static native int eventWords();

    static native int headerBytes();

    static native int creditsBusy();

    static native int sendFileDeclined();

    static native int maxIov();

    static native int iovEntryBytes();

    static native int iovBufferOffset();

    static native int iovLengthOffset();

    static native int seqMask();

    static native int epollCtlAdd();

    static native int epollCtlMod();

    static native int epollCtlDel();

    static native int epollIn();

    static native int epollOut();

    static native int epollErr();

    static native int epollHup();

    static native int epollRdHup();

    static native int senderIp();

    static native int senderScopeId();

    static native int senderPort();

    static native int senderIpLength();

    static native int senderBytes();

    /**
     * ucx_constants.c: the level (high 32 bits) and number (low 32 bits) of the socket option the kernel's
     * headers call {@code name}, or -1 when the library's table does not have it.
     */
    static native long socketOption(String name);
}
