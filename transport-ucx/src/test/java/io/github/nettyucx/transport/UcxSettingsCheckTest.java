/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxSettingsCheck;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UcxSettingsCheckTest {
    @Test
    void readsUcxMemorySizes() {
        assertEquals(8256, UcxSettingsCheck.bytes("8256"));
        assertEquals(65536, UcxSettingsCheck.bytes("64k"));
        assertEquals(65536, UcxSettingsCheck.bytes("64KB"));
        assertEquals(1 << 20, UcxSettingsCheck.bytes(" 1M "));
        assertEquals(1L << 30, UcxSettingsCheck.bytes("1g"));
        assertEquals(-1, UcxSettingsCheck.bytes("auto"));
        assertEquals(Long.MAX_VALUE, UcxSettingsCheck.bytes("99999999999999999999"));
    }

    @Test
    void acceptsNoSettingsAndSegmentsThatFitSixteenBits() {
        assertNull(UcxSettingsCheck.problem(Map.of()));
        assertNull(UcxSettingsCheck.problem(Map.of("UCX_SYSV_SEG_SIZE", "65535", "UCX_POSIX_SEG_SIZE", "8k")));
        assertNull(UcxSettingsCheck.problem(Map.of("UCX_TCP_RX_SEG_SIZE", "256k")));
        assertNull(UcxSettingsCheck.problem(Map.of("UCX_MM_SEG_SIZE", "auto")));
    }

    @Test
    void refusesASharedMemorySegmentOverSixteenBitsAndNamesTheSetting() {
        String problem = UcxSettingsCheck.problem(Map.of("UCX_SYSV_SEG_SIZE", "66000"));
        assertTrue(problem.startsWith("UCX_SYSV_SEG_SIZE=66000 is over 65535 bytes"), problem);
        assertTrue(problem.contains("set at most 65535"), problem);
        assertTrue(UcxSettingsCheck.problem(Map.of("UCX_POSIX_SEG_SIZE", "1m")).startsWith("UCX_POSIX_SEG_SIZE=1m"));
    }

    @Test
    void theSharedSettingCountsWhereNoTransportOverridesIt() {
        assertTrue(UcxSettingsCheck.problem(Map.of("UCX_MM_SEG_SIZE", "64k")).startsWith("UCX_MM_SEG_SIZE=64k"));
        assertTrue(UcxSettingsCheck.problem(Map.of("UCX_MM_SEG_SIZE", "64k", "UCX_SYSV_SEG_SIZE", "8k"))
                .startsWith("UCX_MM_SEG_SIZE=64k"), "posix still inherits it");
        assertNull(UcxSettingsCheck.problem(Map.of("UCX_MM_SEG_SIZE", "64k", "UCX_SYSV_SEG_SIZE", "8k",
                "UCX_POSIX_SEG_SIZE", "8k")));
    }

    @Test
    void whatAUcxTlsValueLetsUcxOpen() {
        assertTrue(UcxSettingsCheck.enables("tcp", "tcp"));
        assertTrue(UcxSettingsCheck.enables("sm,self,tcp", "tcp"));
        assertTrue(UcxSettingsCheck.enables("all", "tcp"));
        assertTrue(UcxSettingsCheck.enables("^sysv", "tcp"), "an exclusion that leaves tcp in");
        assertFalse(UcxSettingsCheck.enables("^tcp,sysv", "tcp"));
        assertFalse(UcxSettingsCheck.enables("^tcp,sysv", "sysv"));
        assertFalse(UcxSettingsCheck.enables("posix,self", "sysv"));
        assertTrue(UcxSettingsCheck.enables("sm", "sysv"), "sm covers sysv");
        assertTrue(UcxSettingsCheck.enables(" SYSV , posix ", "sysv"));
        assertFalse(UcxSettingsCheck.enables("^sm", "sysv"));
    }

    @Test
    void settingsThatReopenWhatTheTransportClosesAreNamed() {
        assertTrue(UcxSettingsCheck.exposures(Map.of(), false).isEmpty(), "the defaults open nothing");
        List<String> never = UcxSettingsCheck.exposures(Map.of(), true);
        assertEquals(1, never.size());
        assertTrue(never.get(0).contains("tcpDataPath=never opens UCX's tcp transport"), never.get(0));
        List<String> both = UcxSettingsCheck.exposures(Map.of("UCX_TLS", "tcp,sysv"), false);
        assertEquals(2, both.size(), both.toString());
        assertTrue(both.get(0).startsWith("UCX_TLS=tcp,sysv opens UCX's tcp transport"), both.get(0));
        assertTrue(both.get(1).contains("sysv transport"), both.get(1));
        assertTrue(UcxSettingsCheck.exposures(Map.of("UCX_TLS", "^tcp,sysv"), false).isEmpty());
        assertTrue(UcxSettingsCheck.exposures(Map.of("UCX_TLS", "posix,self"), true).isEmpty(),
                "the user's UCX_TLS without tcp keeps it closed even with the TCP data path off");
    }
}
