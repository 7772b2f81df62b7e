/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import java.util.concurrent.Callable;

/** The server JVM: starts a framework's server, prints {@code PORT n}, and stops when its standard input ends. */
@Command(name = "bench-frameworks-server", mixinStandardHelpOptions = true)
public final class ServerMain implements Callable<Integer> {
    static final String PORT_LINE = "PORT ";

    @Parameters(index = "0", description = "grpc, reactor-netty or vertx")
    private String framework;

    @Parameters(index = "1", description = "ucx, epoll or nio")
    private String transport;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ServerMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (Framework.Server server = Frameworks.of(framework).serve(BenchTransport.of(transport))) {
            System.out.println(PORT_LINE + server.port());
            System.out.flush();
            while (System.in.read() >= 0) {
                // The coordinator closes our input to stop us.
            }
        }
        return 0;
    }
}
