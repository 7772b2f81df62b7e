/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import io.github.nettyucx.kvstore.client.KvClient;
import io.github.nettyucx.kvstore.client.KvClientConfig;
import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * YCSB's own client ({@code site.ycsb.Client}, in a child JVM because it ends with System.exit)
 * loads and runs workloads A and E against two kvstore servers in this JVM, over UCX. With
 * {@code dataintegrity=true} YCSB writes values derived from key and field and checks every value it
 * reads; a last YCSB phase reads every record once (sequential keys) so that each inserted record,
 * including those inserted during workload E, is checked.
 */
class YcsbEndToEndTest {
    private static final int RECORDS = 400;
    private static final Path WORKLOADS = Paths.get(System.getProperty("ycsb.workloads", "workloads"));

    private static final List<KvServer> servers = new ArrayList<>();

    @BeforeAll
    static void startServers() throws Exception {
        NettyTransport.UCX.ensureAvailable();
        for (int i = 0; i < 2; i++) {
            servers.add(KvServer.start(new KvServerConfig().port(0).transport(NettyTransport.UCX).ioThreads(1)));
        }
    }

    @AfterAll
    static void stopServers() {
        servers.forEach(KvServer::close);
    }

    private static String hosts() {
        StringBuilder sb = new StringBuilder();
        for (KvServer s : servers) {
            sb.append(sb.length() == 0 ? "" : ",").append("127.0.0.1:").append(s.port());
        }
        return sb.toString();
    }

    @Test
    void workloadsAAndEOverUcxAndEveryRecordReadsBackIntact() throws Exception {
        YcsbOutput load = ycsb("-load", "workloada", "-threads", "4", "-p", "recordcount=" + RECORDS);
        assertEquals(Map.of("OK", (long) RECORDS), load.returns("INSERT"));

        YcsbOutput a = ycsb("-t", "workloada", "-threads", "4", "-p", "recordcount=" + RECORDS,
                "-p", "operationcount=2000");
        assertOnlyOk(a, "READ");
        assertOnlyOk(a, "UPDATE");
        assertOnlyOk(a, "VERIFY");
        assertEquals(a.returned("READ", "OK"), a.returned("VERIFY", "OK"));
        assertEquals(2000, a.returned("READ", "OK") + a.returned("UPDATE", "OK"));

        // 100 operations: a scan reads up to 100 records, and under leak detection's paranoid level in a cold JVM
        // on 2 busy cores one took 430 ms on average (400 operations took 47 s in bin/test, 2026-12-02).
        YcsbOutput e = ycsb("-t", "workloade", "-threads", "4", "-p", "recordcount=" + RECORDS,
                "-p", "operationcount=100");
        assertOnlyOk(e, "SCAN");
        long inserted = e.returned("INSERT", "OK");
        assertOnlyOk(e, "INSERT");
        assertEquals(100, e.returned("SCAN", "OK") + inserted);
        assertTrue(e.returned("SCAN", "OK") > 0);

        // Read every record once, in key sequence, with YCSB's own value check.
        long total = RECORDS + inserted;
        YcsbOutput all = ycsb("-t", "workloadc", "-threads", "2", "-p", "recordcount=" + total,
                "-p", "operationcount=" + total, "-p", "requestdistribution=sequential");
        assertEquals(Map.of("OK", total), all.returns("READ"));
        assertEquals(Map.of("OK", total), all.returns("VERIFY"));

        // And from the store's side: exactly those records, spread over both servers, 10 fields of
        // 100 bytes, each value made from its key and field name.
        long stored = 0;
        for (KvServer s : servers) {
            assertTrue(s.store().recordCount() > 0, "a server got no records");
            stored += s.store().recordCount();
        }
        assertEquals(total, stored);
        KvClientConfig config = new KvClientConfig().transport(NettyTransport.UCX).ioThreads(1)
                .servers(KvClientConfig.parseHosts(hosts()));
        try (KvClient client = new KvClient(config)) {
            List<io.github.nettyucx.kvstore.client.KeyRecord> rows =
                    client.scan("usertable:", (int) total + 10, null).get(60, TimeUnit.SECONDS);
            assertEquals(total, rows.size());
            for (io.github.nettyucx.kvstore.client.KeyRecord row : rows) {
                String ycsbKey = row.key().substring("usertable:".length());
                assertEquals(10, row.fields().size(), row.key());
                for (Map.Entry<String, byte[]> f : row.fields().entrySet()) {
                    assertEquals(100, f.getValue().length, row.key() + "/" + f.getKey());
                    String value = new String(f.getValue(), StandardCharsets.US_ASCII);
                    assertTrue(value.startsWith(ycsbKey + ":" + f.getKey()), row.key() + " holds " + value);
                }
            }
        }
    }

    private static void assertOnlyOk(YcsbOutput out, String section) {
        Map<String, Long> returns = out.returns(section);
        assertTrue(returns.containsKey("OK"), section + " has no OK results: " + returns);
        assertEquals(1, returns.size(), section + " results other than OK: " + returns);
    }

    /** Runs site.ycsb.Client in a child JVM and returns its parsed summary. */
    private static YcsbOutput ycsb(String phase, String workload, String... args)
            throws IOException, InterruptedException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(Arrays.asList(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dio.netty.leakDetection.level=paranoid",
                "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", "")));
        // nettyucx.childJvmArgs: JVM options bin/test gives the tests' JVMs and their children (no C2).
        Arrays.stream(System.getProperty("nettyucx.childJvmArgs", "").split(" "))
                .filter(option -> !option.isEmpty()).forEach(command::add);
        command.addAll(Arrays.asList("-cp", classpath, "site.ycsb.Client",
                "-db", KvStoreClient.class.getName(), phase,
                "-P", WORKLOADS.resolve(workload).toString(),
                "-p", "kvstore.hosts=" + hosts(), "-p", "kvstore.transport=ucx",
                "-p", "dataintegrity=true", "-s"));
        command.addAll(Arrays.asList(args));
        File log = File.createTempFile("ycsb-" + workload, ".log");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
            // Liveness bound, far above the few seconds a phase takes.
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("YCSB " + phase + " " + workload + " did not finish in 180 s");
            }
            String output = new String(java.nio.file.Files.readAllBytes(log.toPath()), StandardCharsets.UTF_8);
            System.out.println("---- YCSB " + phase + " " + workload + " " + String.join(" ", args) + "\n" + output);
            assertEquals(0, p.exitValue(), "YCSB exited with " + p.exitValue() + ":\n" + output);
            assertFalse(output.contains("LEAK:"), "buffer leak in the YCSB client:\n" + output);
            YcsbOutput parsed = YcsbOutput.parse(output);
            assertFalse(parsed.isEmpty(), "no YCSB summary in:\n" + output);
            return parsed;
        } finally {
            log.delete();
        }
    }
}
