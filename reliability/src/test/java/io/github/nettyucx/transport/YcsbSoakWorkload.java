/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import io.github.nettyucx.ycsb.KvStoreClient;
import org.apache.htrace.core.HTraceConfiguration;
import org.apache.htrace.core.Tracer;
import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.DBFactory;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * YCSB workload A (the project's {@code ycsb-binding/workloads/workloada}: half reads, half updates, zipfian
 * keys) with {@code dataintegrity=true}, {@code threads} client threads, against a kvstore server over UCX in
 * this process: one operation per READ or UPDATE. Errors are YCSB's own return statuses other than OK
 * (including VERIFY failures, values that do not read back as written) and client threads that end early.
 *
 * <p>It runs YCSB's client code ({@link ClientThread}, {@link CoreWorkload}, {@link DBFactory}'s measuring
 * wrapper around the binding) in this JVM rather than {@code site.ycsb.Client} in a child: {@code Client} only
 * reports when it ends, and ends with {@code System.exit}, while the soak needs progress and errors during the
 * run and the client's heap and native memory inside the process it samples.
 */
final class YcsbSoakWorkload implements SoakWorkload {
    private static final Set<String> TRANSACTIONS = Set.of("READ", "UPDATE");
    private final int threads;
    private final int records;
    private final List<Thread> runners = new ArrayList<>();
    private KvServer server;
    private Workload transactions;
    private Properties properties;
    private volatile boolean stopping;
    private volatile String stopError;

    YcsbSoakWorkload(int threads, int records) {
        this.threads = threads;
        this.records = records;
    }

    @Override
    public String name() {
        return "ycsb-a x" + threads;
    }

    @Override
    public void start() throws Exception {
        server = KvServer.start(new KvServerConfig().host("127.0.0.1").port(0).transport(NettyTransport.UCX)
                .ioThreads(1));
        properties = workloadA();
        properties.setProperty("recordcount", Integer.toString(records));
        properties.setProperty("dataintegrity", "true");
        properties.setProperty("threadcount", Integer.toString(threads));
        properties.setProperty("kvstore.hosts", "127.0.0.1:" + server.port());
        properties.setProperty("kvstore.transport", "ucx");
        properties.setProperty("kvstore.iothreads", "1");
        Measurements.setProperties(properties);

        load();
        transactions = new CoreWorkload();
        transactions.init(properties);
        for (int i = 0; i < threads; i++) {
            runners.add(startClientThread(transactions, true, 0, i, new CountDownLatch(1)));
        }
    }

    /** The inserts of YCSB's load phase, spread over the threads as {@code site.ycsb.Client} does. */
    private void load() throws Exception {
        Workload loader = new CoreWorkload();
        loader.init(properties);
        CountDownLatch done = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            startClientThread(loader, false, records / threads + (i < records % threads ? 1 : 0), i, done);
        }
        if (!done.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("YCSB's load phase did not finish within 120 s: "
                    + YcsbCounts.now().operations(Set.of("INSERT")) + " of " + records + " records inserted");
        }
        loader.cleanup();
        YcsbCounts counts = YcsbCounts.now();
        long inserted = counts.operations(Set.of("INSERT"));
        if (inserted != records || counts.failures() != 0) {
            throw new IllegalStateException("YCSB's load phase inserted " + inserted + " of " + records
                    + " records; failures: " + counts.describeFailures());
        }
    }

    private Thread startClientThread(Workload workload, boolean transactions, int operations, int id,
                                     CountDownLatch done) throws Exception {
        DB db = DBFactory.newDB(KvStoreClient.class.getName(), properties,
                new Tracer.Builder("reliability-soak").conf(HTraceConfiguration.EMPTY).build());
        ClientThread client = new ClientThread(db, transactions, workload, properties, operations, -1, done);
        client.setThreadId(id);
        client.setThreadCount(threads);
        Thread t = new Thread(client, "ycsb-client-" + id);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Properties workloadA() throws IOException {
        Path file = Paths.get(System.getProperty("ycsb.workloads", "../ycsb-binding/workloads"), "workloada");
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        }
        return p;
    }

    @Override
    public long operations() {
        return YcsbCounts.now().operations(TRANSACTIONS);
    }

    @Override
    public long errors() {
        return YcsbCounts.now().failures() + endedEarly() + (stopError != null ? 1 : 0);
    }

    /** Client threads that stopped although nobody asked them to (a failed DB init ends one quietly). */
    private long endedEarly() {
        if (stopping) {
            return 0;
        }
        long ended = 0;
        for (Thread t : runners) {
            if (!t.isAlive()) {
                ended++;
            }
        }
        return ended;
    }

    @Override
    public String firstError() {
        YcsbCounts counts = YcsbCounts.now();
        if (counts.failures() > 0) {
            return "YCSB returned " + counts.describeFailures();
        }
        long ended = endedEarly();
        return ended > 0 ? ended + " YCSB client thread(s) ended early (see the stack trace printed above)"
                : stopError;
    }

    @Override
    public void close() throws Exception {
        stopping = true;
        if (transactions != null) {
            transactions.requestStop();
        }
        for (Thread t : runners) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            if (t.isAlive()) {
                stopError = t.getName() + " did not stop within 30 s of the workload's stop request";
            }
        }
        if (transactions != null) {
            transactions.cleanup();
        }
        if (server != null) {
            server.close();
        }
    }
}
