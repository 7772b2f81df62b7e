/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.kvstore.client.KvClient;
import io.github.nettyucx.kvstore.client.KvClientConfig;
import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;

import java.util.concurrent.CountDownLatch;

/**
 * Command line: {@code kvstore server ...} runs a server until it is stopped, {@code kvstore shell ...}
 * opens the interactive client.
 */
public final class KvStoreMain {
    private static final String USAGE = String.join("\n",
            "usage:",
            "  kvstore server [--port 7379] [--host 127.0.0.1] [--transport ucx|epoll|io_uring|nio]",
            "                 [--threads N] [--max-memory 1g] [--max-frame 16m]",
            "                 (--max-memory counts key and value bytes; default a quarter of the heap, -Xmx)",
            "  kvstore shell  [--hosts 127.0.0.1:7379[,host:port...]] [--transport ucx|epoll|io_uring|nio]",
            "                 [--timeout-ms 10000]");

    private KvStoreMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0])) {
            System.out.println(USAGE);
            return;
        }
        try {
            switch (args[0]) {
                case "server":
                    server(args);
                    break;
                case "shell":
                    shell(args);
                    break;
                default:
                    throw new IllegalArgumentException("unknown command '" + args[0] + "'");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("kvstore: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        } catch (IllegalStateException e) {
            System.err.println("kvstore: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void server(String[] args) throws InterruptedException {
        KvServerConfig config = new KvServerConfig();
        for (int i = 1; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--port":
                    config.port(Integer.parseInt(need(args[i], value)));
                    break;
                case "--host":
                    config.host(need(args[i], value));
                    break;
                case "--transport":
                    config.transport(NettyTransport.of(need(args[i], value)));
                    break;
                case "--threads":
                    config.ioThreads(Integer.parseInt(need(args[i], value)));
                    break;
                case "--max-memory":
                    config.maxMemoryBytes(Sizes.parse(need(args[i], value)));
                    break;
                case "--max-frame":
                    config.maxFrameLength(Math.toIntExact(Sizes.parse(need(args[i], value))));
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
            i++;
        }
        KvServer server = KvServer.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "kvstore-shutdown"));
        // Scripts wait for this line (and read the port from it when --port 0 was given).
        System.out.println(String.format(
                "kvstore: listening on %s:%d over %s (max memory %d bytes, max frame %d bytes)",
                config.host(), server.port(), config.transport().id(), config.maxMemoryBytes(),
                config.maxFrameLength()));
        System.out.flush();
        stopped.await();
    }

    private static void shell(String[] args) throws Exception {
        KvClientConfig config = new KvClientConfig().connectionsPerServer(1).ioThreads(1);
        String hosts = "127.0.0.1:7379";
        for (int i = 1; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--hosts":
                    hosts = need(args[i], value);
                    break;
                case "--transport":
                    config.transport(NettyTransport.of(need(args[i], value)));
                    break;
                case "--timeout-ms":
                    config.requestTimeoutMillis(Long.parseLong(need(args[i], value)));
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
            i++;
        }
        config.servers(KvClientConfig.parseHosts(hosts));
        try (KvClient client = new KvClient(config)) {
            new KvShell(client, System.in, System.out).run();
        }
    }

    private static String need(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }
}
