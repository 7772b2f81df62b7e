/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.jni.UcxNativeConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The values UcxNative reads from the library (ucx_constants.c) are all there and describe sound layouts. */
class UcxNativeConstantsTest {
    @BeforeEach
    void setUp() {
        TestTransport.requireUcx();
    }

    @Test
    void theLibraryDefinesEveryConstant() throws Exception {
        int methods = 0;
        for (Method method : UcxNativeConstants.class.getDeclaredMethods()) {
            if (Modifier.isNative(method.getModifiers()) && method.getParameterCount() == 0) {
                method.setAccessible(true);
                method.invoke(null); // UnsatisfiedLinkError when the library lacks it
                methods++;
            }
        }
        assertTrue(methods > 30, "native constants found: " + methods);
    }

    @Test
    void socketOptionsAreFoundByTheirCName() {
        long noDelay = UcxNativeConstants.socketOption("TCP_NODELAY");
        long keepAlive = UcxNativeConstants.socketOption("SO_KEEPALIVE");
        assertTrue(noDelay > 0 && keepAlive > 0 && noDelay != keepAlive, noDelay + ", " + keepAlive);
        assertTrue(noDelay >>> 32 != keepAlive >>> 32, "TCP and socket levels differ");
        assertEquals(-1, UcxNativeConstants.socketOption("SO_NO_SUCH_OPTION"));
    }

    @Test
    void eachLayoutNamesDistinctWordsBelowItsSize() {
        assertLayout(UcxNative.STATE_HEADER_WORDS, UcxNative.STATE_NOTIFIED, UcxNative.STATE_ERROR,
                UcxNative.STATE_CREDITS, UcxNative.STATE_WIRED_UP, UcxNative.STATE_HELD);
        assertLayout(UcxNative.READY_HEADER_WORDS, UcxNative.READY_COUNT, UcxNative.READY_CAPACITY,
                UcxNative.READY_OVERFLOWED);
        assertLayout(UcxNative.CREATED_WORDS, UcxNative.CREATED_CONN, UcxNative.CREATED_STATE,
                UcxNative.CREATED_SEND_AREA, UcxNative.CREATED_ID, UcxNative.CREATED_SEND_STRIDE,
                UcxNative.CREATED_TAG_SECRET, UcxNative.CREATED_MESSAGE_KEY);
        assertLayout(UcxNative.MAP_WORDS, UcxNative.MAP_ADDRESS, UcxNative.MAP_MEMH, UcxNative.MAP_STATUS);
        assertLayout(UcxNative.EVENT_WORDS, UcxNative.EVENT_FD, UcxNative.EVENT_EVENTS);
        assertLayout(UcxNative.IOV_ENTRY_BYTES / Long.BYTES, UcxNative.IOV_BUFFER_OFFSET / Long.BYTES,
                UcxNative.IOV_LENGTH_OFFSET / Long.BYTES);
    }

    @Test
    void slotStatesAreDistinctAndOutsideWhatCompletionsWrite() {
        // A completed receive's word is its length (>= 0); a failed send's word a ucs_status_t (< 0).
        assertTrue(UcxNative.RECV_POSTED < 0 && UcxNative.RECV_IDLE < 0);
        assertTrue(UcxNative.RECV_POSTED != UcxNative.RECV_IDLE);
        assertTrue(UcxNative.SEND_FREE >= 0 && UcxNative.SEND_BUSY >= 0);
        assertTrue(UcxNative.SEND_FREE != UcxNative.SEND_BUSY);
        assertEquals(0, UcxNative.SEQ_MASK & (UcxNative.SEQ_MASK + 1), "the sequence mask is 2^n - 1");
        // socketSendFile returns it where it returns a count of bytes sent, or -1 after throwing.
        assertTrue(UcxNative.SEND_FILE_DECLINED < -1, "SEND_FILE_DECLINED reads as a count of bytes sent");
    }

    private static void assertLayout(int size, int... words) {
        Set<Integer> seen = new HashSet<>();
        for (int word : words) {
            assertTrue(word >= 0 && word < size, word + " outside 0.." + (size - 1));
            assertTrue(seen.add(word), word + " named twice");
        }
        assertEquals(size, words.length, "every word of the layout has a name");
    }
}
