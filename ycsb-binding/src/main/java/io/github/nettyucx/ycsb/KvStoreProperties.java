/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import io.github.nettyucx.kvstore.client.KvClientConfig;
import io.github.nettyucx.support.NettyTransport;

import java.util.Properties;

/** The binding's YCSB properties ({@code -p name=value} or a workload file) and their defaults. */
final class KvStoreProperties {
    static final String HOSTS = "kvstore.hosts";
    static final String TRANSPORT = "kvstore.transport";
    static final String TIMEOUT_MS = "kvstore.timeout.ms";
    static final String CONNECT_TIMEOUT_MS = "kvstore.connect.timeout.ms";
    static final String CONNECTIONS = "kvstore.connections";
    static final String IO_THREADS = "kvstore.iothreads";

    static final String DEFAULT_HOSTS = "127.0.0.1:7379";

    private KvStoreProperties() {
    }

    /** The client settings these properties describe; also the key under which clients are shared. */
    static String describe(Properties p) {
        return p.getProperty(HOSTS, DEFAULT_HOSTS) + "|" + p.getProperty(TRANSPORT, "ucx") + "|"
                + p.getProperty(TIMEOUT_MS, "") + "|" + p.getProperty(CONNECT_TIMEOUT_MS, "") + "|"
                + p.getProperty(CONNECTIONS, "") + "|" + p.getProperty(IO_THREADS, "");
    }

    static KvClientConfig toConfig(Properties p) {
        KvClientConfig c = new KvClientConfig()
                .servers(KvClientConfig.parseHosts(p.getProperty(HOSTS, DEFAULT_HOSTS)))
                .transport(NettyTransport.of(p.getProperty(TRANSPORT, "ucx")));
        if (p.getProperty(TIMEOUT_MS) != null) {
            c.requestTimeoutMillis(Long.parseLong(p.getProperty(TIMEOUT_MS).trim()));
        }
        if (p.getProperty(CONNECT_TIMEOUT_MS) != null) {
            c.connectTimeoutMillis(Integer.parseInt(p.getProperty(CONNECT_TIMEOUT_MS).trim()));
        }
        if (p.getProperty(CONNECTIONS) != null) {
            c.connectionsPerServer(Integer.parseInt(p.getProperty(CONNECTIONS).trim()));
        }
        if (p.getProperty(IO_THREADS) != null) {
            c.ioThreads(Integer.parseInt(p.getProperty(IO_THREADS).trim()));
        }
        return c;
    }
}
