/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** This process's open file descriptors, as leak checks count them. */
final class OpenDescriptors {
    private OpenDescriptors() {
    }

    /**
     * What the descriptors point at ("socket:[123]", "anon_inode:[eventfd]", a path), sorted, except class
     * path jars: the class loader opens a jar the first time it loads a class from it and keeps it open, which
     * is not a leak of the code under test. Nor are the cgroup files HotSpot reads for a moment, from its own
     * threads, whenever it sizes its compiler threads or heap in a container (a CI run caught one open).
     */
    static List<String> targets() {
        List<String> targets = new ArrayList<>();
        Path dir = Paths.get("/proc/self/fd");
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(dir)) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed meanwhile
                }
                boolean ownStream = target.startsWith("/proc/") && target.endsWith("/fd");
                boolean jvmsCgroupRead = target.startsWith("/sys/fs/cgroup/");
                if (!target.endsWith(".jar") && !ownStream && !jvmsCgroupRead) {
                    targets.add(target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Collections.sort(targets);
        return targets;
    }
}
