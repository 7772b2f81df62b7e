/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

/**
 * The values the native library shares with Java, one native method each (ucx_constants.c), as Netty's
 * {@code NativeStaticallyReferencedJniMethods}: the C side is their only definition. Read once, into the
 * constants of {@link UcxNative}; use those. This class has no static state, so that {@code JNI_OnLoad}
 * can register its methods before anything reads them.
 */
public final class UcxNativeConstants {
    private UcxNativeConstants() {
    }

    public static native int recvPosted();

    public static native int recvIdle();

    public static native int sendFree();

    public static native int sendBusy();

    public static native int stateNotified();

    public static native int stateError();

    public static native int stateCredits();

    public static native int stateWiredUp();

    public static native int stateHeld();

    public static native int stateHeaderWords();

    public static native int readyCount();

    public static native int readyCapacity();

    public static native int readyOverflowed();

    public static native int readyHeaderWords();

    public static native int createdConn();

    public static native int createdState();

    public static native int createdSendArea();

    public static native int createdId();

    public static native int createdSendStride();

    public static native int createdTagSecret();

    public static native int createdMessageKey();

    public static native int createdWords();

    public static native int mapAddress();

    public static native int mapMemh();

    public static native int mapStatus();

    public static native int mapWords();

    public static native int eventFd();

    public static native int eventEvents();

    public static native int eventWords();

    public static native int headerBytes();

    public static native int creditsBusy();

    public static native int sendFileDeclined();

    public static native int maxIov();

    public static native int iovEntryBytes();

    public static native int iovBufferOffset();

    public static native int iovLengthOffset();

    public static native int seqMask();

    public static native int epollCtlAdd();

    public static native int epollCtlMod();

    public static native int epollCtlDel();

    public static native int epollIn();

    public static native int epollOut();

    public static native int epollErr();

    public static native int epollHup();

    public static native int epollRdHup();

    public static native int senderIp();

    public static native int senderScopeId();

    public static native int senderPort();

    public static native int senderIpLength();

    public static native int senderBytes();

    /**
     * ucx_constants.c: the level (high 32 bits) and number (low 32 bits) of the socket option the kernel's
     * headers call {@code name}, or -1 when the library's table does not have it.
     */
    public static native long socketOption(String name);
}
