/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The binding's answers to YCSB, status by status, over UCX. */
class KvStoreClientTest {
    private static DB db(Properties p) throws Exception {
        KvStoreClient db = new KvStoreClient();
        db.setProperties(p);
        db.init();
        return db;
    }

    private static Properties props(String hosts) {
        Properties p = new Properties();
        p.setProperty("kvstore.hosts", hosts);
        p.setProperty("kvstore.transport", "ucx");
        p.setProperty("kvstore.timeout.ms", "30000");
        return p;
    }

    @Test
    void statusesForEachOperation() throws Exception {
        try (KvServer server = KvServer.start(new KvServerConfig().port(0).transport(NettyTransport.UCX).ioThreads(1)
                .maxMemoryBytes(4000))) {
            DB db = db(props("127.0.0.1:" + server.port()));
            try {
                Map<String, ByteIterator> values = new HashMap<>(StringByteIterator.getByteIteratorMap(
                        Map.of("field0", "a", "field1", "b")));
                assertEquals(Status.OK, db.insert("usertable", "user1", values));
                assertEquals(Status.OK, db.insert("usertable", "user2", new HashMap<>(
                        StringByteIterator.getByteIteratorMap(Map.of("field0", "c")))));
                assertEquals(Status.OK, db.insert("othertable", "user3", new HashMap<>(
                        StringByteIterator.getByteIteratorMap(Map.of("field0", "d")))));

                Map<String, ByteIterator> read = new HashMap<>();
                assertEquals(Status.OK, db.read("usertable", "user1", null, read));
                assertEquals(Map.of("field0", "a", "field1", "b"), StringByteIterator.getStringMap(read));
                read.clear();
                assertEquals(Status.OK, db.read("usertable", "user1", Set.of("field1"), read));
                assertEquals(Map.of("field1", "b"), StringByteIterator.getStringMap(read));
                assertEquals(Status.NOT_FOUND, db.read("usertable", "nobody", null, new HashMap<>()));

                assertEquals(Status.OK, db.update("usertable", "user1", new HashMap<>(
                        StringByteIterator.getByteIteratorMap(Map.of("field1", "B")))));
                assertEquals(Status.NOT_FOUND, db.update("usertable", "nobody", new HashMap<>(
                        StringByteIterator.getByteIteratorMap(Map.of("field1", "B")))));

                // A scan stays inside its table.
                Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
                assertEquals(Status.OK, db.scan("usertable", "user1", 10, null, rows));
                assertEquals(2, rows.size());
                assertEquals("B", rows.get(0).get("field1").toString());

                assertEquals(Status.OK, db.delete("usertable", "user2"));
                assertEquals(Status.NOT_FOUND, db.delete("usertable", "user2"));

                Status full = db.insert("usertable", "huge", new HashMap<>(
                        StringByteIterator.getByteIteratorMap(Map.of("field0", "x".repeat(5000)))));
                assertEquals(KvStoreClient.MEMORY_LIMIT, full);
            } finally {
                db.cleanup();
            }
        }
    }

    @Test
    void threadsShareOneClientAndADownServerIsServiceUnavailable() throws Exception {
        int freePort;
        try (ServerSocket s = new ServerSocket(0)) {
            freePort = s.getLocalPort();
        }
        Properties p = props("127.0.0.1:" + freePort);
        KvStoreClient a = (KvStoreClient) db(p);
        KvStoreClient b = (KvStoreClient) db(p);
        try {
            assertSame(a.client(), b.client());
            assertEquals(Status.SERVICE_UNAVAILABLE, a.read("usertable", "k", null, new HashMap<>()));
            assertEquals(Status.SERVICE_UNAVAILABLE, b.insert("usertable", "k", new HashMap<>()));
        } finally {
            a.cleanup();
        }
        assertTrue(b.client() != null);
        b.cleanup();
        KvStoreClient c = (KvStoreClient) db(p);
        try {
            // The last cleanup closed the shared client; a new DB gets a new one.
            assertNotSame(null, c.client());
        } finally {
            c.cleanup();
        }
    }
}
