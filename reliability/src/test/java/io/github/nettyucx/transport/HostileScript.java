/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Assumptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The hostile client {@code src/test/python/hostile_client.py} (its docstring lists its commands and what it
 * prints), run in a process of its own, optionally as another user. Its output lines are collected for
 * {@link #awaitLine}; it is killed on {@link #close()}.
 */
final class HostileScript implements AutoCloseable {
    private static final String PYTHON = Files.isExecutable(Paths.get("/usr/bin/python3")) ? "/usr/bin/python3"
            : "python3";
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer output = new StringBuffer();

    private HostileScript(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    output.append(line).append('\n');
                }
            } catch (IOException e) {
                // The process is gone.
            }
        }, "hostile-script-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Skips the test (with the reason) where no Python 3 can run the script. */
    static void assumePython() throws InterruptedException {
        boolean ok;
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import sys; sys.exit(sys.version_info[0] != 3)")
                    .redirectErrorStream(true).start();
            ok = p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            ok = false;
        }
        Assumptions.assumeTrue(ok, "no Python 3 (" + PYTHON + ") to run the hostile client");
    }

    /** Runs {@code command} against {@code server} with {@code args}, as this process's user. */
    static HostileScript start(InetSocketAddress server, String command, String... args) throws IOException {
        return startAs(List.of(), server, command, args);
    }

    /**
     * Runs it behind {@code prefix} (e.g. {@code setpriv --reuid=65534 ...}); the script is copied where any user
     * can read it.
     */
    static HostileScript startAs(List<String> prefix, InetSocketAddress server, String command, String... args)
            throws IOException {
        List<String> line = new ArrayList<>(prefix);
        line.add(PYTHON);
        line.add(prefix.isEmpty() ? script().toString() : readableCopy().toString());
        line.add(command);
        line.add(server.getAddress().getHostAddress());
        line.add(Integer.toString(server.getPort()));
        line.addAll(List.of(args));
        return new HostileScript(new ProcessBuilder(line).redirectErrorStream(true).start());
    }

    private static Path script() {
        return Paths.get(System.getProperty("basedir", "."), "src", "test", "python", "hostile_client.py")
                .toAbsolutePath();
    }

    private static Path readableCopy() throws IOException {
        Path dir = Files.createTempDirectory("nucx-hostile",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path copy = dir.resolve("hostile_client.py");
        Files.copy(script(), copy, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
        copy.toFile().deleteOnExit();
        dir.toFile().deleteOnExit();
        return copy;
    }

    /** The rest of the first line starting with {@code prefix} within {@code seconds}, trimmed; fails otherwise. */
    String awaitLine(String prefix, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(50, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
        fail("the hostile client did not print '" + prefix + "' within " + seconds + " s"
                + (process.isAlive() ? "" : " (exited with " + process.exitValue() + ")") + "; output:\n" + output);
        return null;
    }

    /** Waits for the script to print DONE (the handshake command's last line); returns its whole output. */
    String awaitDone(long seconds) throws InterruptedException {
        awaitLine("DONE", seconds);
        System.out.print("hostile client:\n" + output);
        return output.toString();
    }

    /** Sends a line to the script's standard input. */
    void send(String text) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((text + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    String output() {
        return output.toString();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
