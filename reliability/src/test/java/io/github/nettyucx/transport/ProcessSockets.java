/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a process holds open, read from /proc as an outsider would: its TCP sockets in LISTEN (the kernel's table of
 * its network namespace, matched to the socket inodes of its descriptors), and the shared-memory files it maps through
 * descriptors (/dev/shm, deleted or not).
 */
final class ProcessSockets {
    private ProcessSockets() {
    }

    /** The addresses ("127.0.0.1:8080", "[::]:41234") on which process {@code pid} listens for TCP connections. */
    static List<String> listening(long pid) throws IOException {
        Map<String, Path> sockets = descriptors(pid, "socket:[");
        List<String> out = new ArrayList<>();
        for (String table : new String[] {"tcp", "tcp6"}) {
            for (String line : Files.readAllLines(Paths.get("/proc/" + pid + "/net/" + table))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals("0A") && sockets.containsKey("socket:[" + f[9] + "]")) {
                    out.add(decode(f[1]));
                }
            }
        }
        return out;
    }

    /** The port of an address {@link #listening} gave. */
    static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /**
     * The descriptors of process {@code pid} whose target starts with {@code prefix} ("socket:[", "/dev/shm/"): target
     * to the descriptor's path under /proc, through which the file itself can be stat'ed even when it is deleted.
     */
    static Map<String, Path> descriptors(long pid, String prefix) throws IOException {
        Map<String, Path> found = new HashMap<>();
        try (Stream<Path> fds = Files.list(Paths.get("/proc/" + pid + "/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(prefix)) {
                        found.put(target, fd);
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return found;
    }

    /** "0100007F:1F90" (little-endian IPv4, or 32 hex digits of IPv6) to "127.0.0.1:8080". */
    private static String decode(String hexAddress) {
        String[] parts = hexAddress.split(":");
        int port = Integer.parseInt(parts[1], 16);
        String hex = parts[0];
        if (hex.length() == 8) {
            long a = Long.parseLong(hex, 16);
            return (a & 0xFF) + "." + ((a >> 8) & 0xFF) + "." + ((a >> 16) & 0xFF) + "." + ((a >> 24) & 0xFF)
                    + ":" + port;
        }
        return (hex.equals("00000000000000000000000000000000") ? "[::]" : "[" + hex + "]") + ":" + port;
    }
}
