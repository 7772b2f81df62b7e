/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A Python with grpcio and grpcio-tools (pinned, from PyPI) in a virtual environment under {@code target/}, made on
 * first use: the gRPC client no one here wrote.
 */
final class PythonGrpc {
    private static final String GRPCIO = "1.85.1";
    private static final Path VENV = Paths.get("target", "python-venv");

    private PythonGrpc() {
    }

    /** The environment's interpreter, created with its packages when missing. */
    static synchronized Path interpreter() throws Exception {
        Path python = VENV.resolve("bin").resolve("python");
        Path ready = VENV.resolve("grpcio-" + GRPCIO);
        if (Files.exists(ready)) {
            return python;
        }
        try {
            PlainClientsOfAUcxServerTest.run("python3", "-m", "venv", VENV.toString());
        } catch (AssertionError e) {
            throw new AssertionError("python3 cannot create a virtual environment; on Debian: "
                    + "apt-get install -y python3-venv (bin/setup does)", e);
        }
        PlainClientsOfAUcxServerTest.run(python.toString(), "-m", "pip", "install", "--quiet",
                "--disable-pip-version-check", "grpcio==" + GRPCIO, "grpcio-tools==" + GRPCIO);
        Files.createFile(ready);
        return python;
    }
}
