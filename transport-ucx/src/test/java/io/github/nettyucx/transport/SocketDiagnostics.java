/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the kernel says about one of this process's sockets, for a failed test's message: its TCP state and the
 * epoll sets that watch it, with their event masks (from /proc). A loop that missed a peer's hang-up either no
 * longer watches the socket or watches it without the events that would report it.
 */
final class SocketDiagnostics {
    private static final String[] TCP_STATES = {"?", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2",
        "TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK", "LISTEN", "CLOSING"};

    private SocketDiagnostics() {
    }

    static String describe(int fd) {
        if (fd < 0) {
            return "no socket";
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return "fd " + fd + " is " + target + " (" + tcpState(target) + "), " + watchers(fd);
        } catch (IOException | RuntimeException e) {
            return "fd " + fd + ": " + e;
        }
    }

    private static String tcpState(String target) throws IOException {
        if (!target.startsWith("socket:[")) {
            return "not a socket";
        }
        String inode = target.substring("socket:[".length(), target.length() - 1);
        for (String table : new String[] {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
            for (String line : Files.readAllLines(Path.of(table))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[9].equals(inode)) {
                    int state = Integer.parseInt(f[3], 16);
                    return "TCP " + (state < TCP_STATES.length ? TCP_STATES[state] : f[3]);
                }
            }
        }
        return "no TCP entry";
    }

    private static String watchers(int fd) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> infos = Files.list(Path.of("/proc/self/fdinfo"))) {
            for (Path info : (Iterable<Path>) infos::iterator) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(info);
                } catch (IOException gone) {
                    continue;
                }
                for (String line : lines) {
                    if (line.startsWith("tfd:") && line.split("\\s+")[1].equals(String.valueOf(fd))) {
                        found.add("epoll fd " + info.getFileName() + ": " + line.trim());
                    }
                }
            }
        }
        return found.isEmpty() ? "in no epoll set" : String.join("; ", found);
    }
}
