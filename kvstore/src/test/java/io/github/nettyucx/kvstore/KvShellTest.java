/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.kvstore.client.KvClient;
import io.github.nettyucx.kvstore.client.KvClientConfig;
import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The interactive client, fed a script, against a real server. */
class KvShellTest {
    @Test
    void commandsTypedAtThePrompt() throws Exception {
        String script = String.join("\n",
                "put user1 name=ann city=oslo",
                "get user1",
                "get user1 city",
                "update user1 city=bergen",
                "update nobody city=x",
                "put user2 name=bob",
                "scan user 10",
                "delete user2",
                "delete user2",
                "get user2",
                "put user3 oops",
                "frobnicate",
                "quit",
                "get user1") + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (KvServer server = KvServer.start(new KvServerConfig().port(0).transport(NettyTransport.NIO).ioThreads(1));
             KvClient client = new KvClient(new KvClientConfig().server(server.address()).transport(NettyTransport.NIO)
                     .ioThreads(1).connectionsPerServer(1))) {
            new KvShell(client, new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(out, true, StandardCharsets.UTF_8)).run();
        }
        String[] lines = out.toString(StandardCharsets.UTF_8).split("kv> ", -1);
        // lines[0] is the banner; then one answer per command; nothing after quit.
        assertEquals(String.join("|",
                "OK",
                "{name=ann, city=oslo}",
                "{city=oslo}",
                "OK",
                "(not found)",
                "OK",
                "user1 {name=ann, city=bergen}\nuser2 {name=bob}\n(2 records)",
                "OK",
                "(not found)",
                "(not found)",
                "error: 'oops' is not FIELD=VALUE",
                "unknown command 'frobnicate'; type help",
                ""), String.join("|", java.util.Arrays.stream(lines).skip(1).map(String::trim).toArray(String[]::new)));
    }
}
