/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.kvstore.client.KeyRecord;
import io.github.nettyucx.kvstore.client.KvClient;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/** The interactive client: one command per line, the answer printed below it. */
final class KvShell {
    static final String HELP = String.join("\n",
            "commands:",
            "  get KEY [FIELD...]            print a record (or only some fields)",
            "  put KEY FIELD=VALUE...        insert or replace a record",
            "  update KEY FIELD=VALUE...     change fields of an existing record",
            "  delete KEY                    remove a record",
            "  scan START_KEY COUNT          records in key order from START_KEY",
            "  stats                         counters of every server",
            "  help, quit");

    private final KvClient client;
    private final BufferedReader in;
    private final PrintStream out;

    KvShell(KvClient client, InputStream in, PrintStream out) {
        this.client = client;
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
    }

    void run() throws Exception {
        StringBuilder servers = new StringBuilder();
        for (InetSocketAddress server : client.servers()) {
            servers.append(servers.length() == 0 ? "" : ", ").append(server.getHostString()).append(':')
                    .append(server.getPort());
        }
        out.println("kvstore shell: " + client.servers().size() + " server(s) " + servers + " over "
                + client.config().transport().id() + "; type help");
        while (true) {
            out.print("kv> ");
            out.flush();
            String line = in.readLine();
            if (line == null) {
                out.println();
                return;
            }
            String[] words = line.trim().split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            if ("quit".equals(words[0]) || "exit".equals(words[0])) {
                return;
            }
            try {
                execute(words);
            } catch (ExecutionException e) {
                out.println("error: " + e.getCause().getMessage());
            } catch (IllegalArgumentException e) {
                out.println("error: " + e.getMessage());
            }
        }
    }

    private void execute(String[] w) throws ExecutionException, InterruptedException {
        switch (w[0]) {
            case "get": {
                args(w, 2, "get KEY [FIELD...]");
                List<String> fields = w.length > 2 ? Arrays.asList(w).subList(2, w.length) : null;
                Map<String, byte[]> record = client.get(w[1], fields).get();
                out.println(record == null ? "(not found)" : format(record));
                break;
            }
            case "put":
                args(w, 3, "put KEY FIELD=VALUE...");
                client.put(w[1], fields(w)).get();
                out.println("OK");
                break;
            case "update":
                args(w, 3, "update KEY FIELD=VALUE...");
                out.println(client.update(w[1], fields(w)).get() ? "OK" : "(not found)");
                break;
            case "delete":
                args(w, 2, "delete KEY");
                out.println(client.delete(w[1]).get() ? "OK" : "(not found)");
                break;
            case "scan": {
                args(w, 3, "scan START_KEY COUNT");
                List<KeyRecord> rows = client.scan(w[1], Integer.parseInt(w[2]), null).get();
                for (KeyRecord row : rows) {
                    out.println(row.key() + " " + format(row.fields()));
                }
                out.println("(" + rows.size() + " records)");
                break;
            }
            case "stats":
                for (InetSocketAddress server : client.servers()) {
                    out.println(server.getHostString() + ":" + server.getPort() + " " + client.stats(server).get());
                }
                break;
            case "help":
                out.println(HELP);
                break;
            default:
                out.println("unknown command '" + w[0] + "'; type help");
        }
    }

    private static void args(String[] w, int min, String usage) {
        if (w.length < min) {
            throw new IllegalArgumentException("usage: " + usage);
        }
    }

    private static Map<String, byte[]> fields(String[] w) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (int i = 2; i < w.length; i++) {
            int eq = w[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + w[i] + "' is not FIELD=VALUE");
            }
            fields.put(w[i].substring(0, eq), w[i].substring(eq + 1).getBytes(StandardCharsets.UTF_8));
        }
        return fields;
    }

    /** Fields as name=value; values that are not printable text are shown as their length. */
    static String format(Map<String, byte[]> record) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, byte[]> e : record.entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(e.getKey()).append('=');
            byte[] v = e.getValue();
            if (isPrintable(v)) {
                sb.append(new String(v, StandardCharsets.UTF_8));
            } else {
                sb.append('<').append(v.length).append(" bytes>");
            }
        }
        return sb.append('}').toString();
    }

    private static boolean isPrintable(byte[] v) {
        for (byte b : v) {
            if (b < 0x20 || b == 0x7f) {
                return false;
            }
        }
        return true;
    }
}
