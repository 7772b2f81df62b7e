/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentSettingsTest {
    @Test
    void noArgumentsMoveEveryTransportAndTurnThePlainTcpFallbackOn() {
        AgentSettings s = AgentSettings.parse(null);
        assertEquals(EnumSet.allOf(AgentSettings.Transport.class), s.transports);
        assertTrue(s.excludePackages.isEmpty());
        assertNull(s.metricsFile);
        assertEquals("true", s.properties.get("io.github.nettyucx.plainTcpFallback"));
        assertEquals(AgentSettings.parse("").transports, s.transports);
    }

    @Test
    void valuesKeepTheirCommasUntilTheNextName() {
        AgentSettings s = AgentSettings.parse("transports=nio,epoll,trust=secret-file:/a,secret-file:/b,"
                + "excludePackages=org.apache.zookeeper,com.example.,plainTcpFallback=false");
        assertEquals(EnumSet.of(AgentSettings.Transport.NIO, AgentSettings.Transport.EPOLL), s.transports);
        assertEquals("secret-file:/a,secret-file:/b", s.properties.get("io.github.nettyucx.trust"));
        assertEquals(List.of("org.apache.zookeeper", "com.example."), s.excludePackages);
        assertEquals("false", s.properties.get("io.github.nettyucx.plainTcpFallback"));
    }

    @Test
    void aBase64KeyWithPaddingStaysOneValue() {
        AgentSettings s = AgentSettings.parse("trust=secret:q83vEjRWeJA=,transports=io_uring");
        assertEquals("secret:q83vEjRWeJA=", s.properties.get("io.github.nettyucx.trust"));
        assertEquals(EnumSet.of(AgentSettings.Transport.IO_URING), s.transports);
    }

    @Test
    void exclusionsMatchWholePackagesAndThreadNamePrefixes() {
        AgentSettings s = AgentSettings.parse("excludePackages=org.apache.zookeeper,excludeThreads=zk-,rpc-client");
        assertTrue(s.excludes("org.apache.zookeeper.ClientCnxn", "main"));
        assertFalse(s.excludes("org.apache.zookeeperish.Client", "main"));
        assertTrue(s.excludes("com.example.App", "zk-loop-1"));
        assertTrue(s.excludes("com.example.App", "rpc-client-3"));
        assertFalse(s.excludes("com.example.App", "main"));
    }

    @Test
    void wrongArgumentsSayWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentSettings.parse("transports=nio,tcp"));
        assertTrue(e.getMessage().contains("unknown transport 'tcp'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AgentSettings.parse("nio"));
        assertTrue(e.getMessage().contains("do not start with name=value"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AgentSettings.parse("trust=any,trust=none"));
        assertTrue(e.getMessage().contains("given twice"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AgentSettings.parse("metricsFile="));
    }
}
