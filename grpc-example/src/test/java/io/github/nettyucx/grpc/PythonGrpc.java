/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * A Python with grpcio and grpcio-tools (pinned, from PyPI) in a virtual environment, made on first use: the gRPC
 * client no one here wrote. The environment lives beside bin/setup's tools, under {@code $NETTYUCX_TOOLS} (default
 * {@code ~/.cache/netty-ucx}), one per grpcio version, so that a fresh clone does not make it again (about 10 s);
 * a file lock there keeps two builds from making it at once.
 */
final class PythonGrpc {
    private static final String GRPCIO = "1.85.1";

    private PythonGrpc() {
    }

    private static Path tools() {
        String dir = System.getenv("NETTYUCX_TOOLS");
        return dir != null && !dir.isEmpty() ? Paths.get(dir)
                : Paths.get(System.getProperty("user.home"), ".cache", "netty-ucx");
    }

    /** The environment's interpreter, created with its packages when missing. */
    static synchronized Path interpreter() throws Exception {
        Path tools = tools();
        Path venv = tools.resolve("python-grpcio-" + GRPCIO);
        Path python = venv.resolve("bin").resolve("python");
        Path ready = venv.resolve("ready");
        if (Files.exists(ready)) {
            return python;
        }
        Files.createDirectories(tools);
        try (FileChannel channel = FileChannel.open(tools.resolve("python-grpcio.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
             FileLock lock = channel.lock()) {
            if (Files.exists(ready)) {
                return python;
            }
            // Over what a build that died half-way left, if anything: venv and pip complete it.
            try {
                PlainClientsOfAUcxServerTest.run("python3", "-m", "venv", venv.toString());
            } catch (AssertionError e) {
                throw new AssertionError("python3 cannot create a virtual environment; on Debian: "
                        + "apt-get install -y python3-venv (bin/setup does)", e);
            }
            PlainClientsOfAUcxServerTest.run(python.toString(), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", "grpcio==" + GRPCIO, "grpcio-tools==" + GRPCIO);
            Files.createFile(ready);
        }
        return python;
    }
}
