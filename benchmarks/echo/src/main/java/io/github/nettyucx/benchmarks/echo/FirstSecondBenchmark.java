/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ChildProcess;
import io.github.nettyucx.benchmarks.core.CommandLines;
import io.github.nettyucx.benchmarks.core.JavaCommand;
import io.github.nettyucx.benchmarks.core.UcxVariant;
import io.github.nettyucx.support.NettyTransport;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The round trips of a fresh pair of JVMs, from the first one: a plain Netty echo application (length-prefixed
 * frames, one boss and one worker loop in the server, one loop in the client) whose client times every round trip
 * and reports the median of each window of round trips. Each run starts a new server JVM and a new client JVM for
 * each variant, in alternating order; {@link FirstSecondReport} writes what they measured.
 */
public final class FirstSecondBenchmark {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(FirstSecondBenchmark.class);

    @Command(name = "bin/bench first-second", mixinStandardHelpOptions = true,
            description = "Round trips of fresh JVM pairs, window by window, UCX next to epoll.")
    static final class Options {
        @Option(names = "--runs", paramLabel = "N", description = "runs, each with a fresh JVM pair per variant "
                + "(default: ${DEFAULT-VALUE})")
        int runs = 5;

        @Option(names = "--windows", paramLabel = "N", description = "windows per JVM pair (default: ${DEFAULT-VALUE})")
        int windows = 10;

        @Option(names = "--window", paramLabel = "ROUND_TRIPS", description = "round trips per window "
                + "(default: ${DEFAULT-VALUE})")
        int window = 2_000;

        @Option(names = "--size", paramLabel = "BYTES", description = "message size (default: ${DEFAULT-VALUE})")
        int size = 16;

        @Option(names = "--variants", split = ",", paramLabel = "LIST", description = "ucx (the default waiting), "
                + "UCX with other settings (io.github.nettyucx.benchmarks.core.UcxVariant: ucx-nostartup, ucx-sleep, "
                + "ucx-noslice, ...), epoll, nio (default: ${DEFAULT-VALUE})")
        List<String> variants = new ArrayList<>(List.of("ucx", "ucx-nostartup", "epoll"));

        @Option(names = "--out", paramLabel = "DIR", description = "where results go (default: ${DEFAULT-VALUE})")
        Path out = Paths.get("docs/benchmarks/first-second");
    }

    private FirstSecondBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--serve")) {
            FirstSecondApp.serve(NettyTransport.of(args[1]));
            return;
        }
        if (args.length > 0 && args[0].equals("--client")) {
            FirstSecondApp.client(NettyTransport.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]), Integer.parseInt(args[5]));
            return;
        }
        Options options = new Options();
        if (!CommandLines.parse("bin/bench first-second", options, args)) {
            return;
        }
        run(options, String.join(" ", args));
    }

    private static void run(Options options, String arguments) throws Exception {
        FirstSecondReport report = new FirstSecondReport(options,
                "bin/bench first-second" + (arguments.isEmpty() ? "" : " " + arguments));
        for (int run = 1; run <= options.runs; run++) {
            List<String> order = new ArrayList<>(options.variants);
            if (run % 2 == 0) {
                Collections.reverse(order);
            }
            for (String variant : order) {
                List<Double> windows = measure(variant, options);
                logger.info("run {}/{} {}: first median (us), their time (ms), windows' medians (us) {}",
                        run, options.runs, variant, windows);
                report.add(run, variant, windows);
            }
        }
        report.write(options.out);
        System.out.println("results in " + options.out.toAbsolutePath());
    }

    /**
     * One fresh server JVM and one fresh client JVM: the median of the client's first {@link FirstSecondApp#FIRST}
     * round trips (us), the time they took in all (ms), then the medians of its windows (us).
     */
    private static List<Double> measure(String variant, Options options) throws Exception {
        Optional<UcxVariant> ucxVariant = UcxVariant.named(variant);
        List<String> jvmOptions = ucxVariant.map(UcxVariant::jvmOptions).orElse(List.of());
        NettyTransport transport = ucxVariant.isPresent() ? NettyTransport.UCX : NettyTransport.of(variant);
        try (ChildProcess server = start(jvmOptions, List.of("--serve", transport.id()), transport)) {
            String port = server.lines().awaitPrefix("PORT ", 60, TimeUnit.SECONDS).substring(5).trim();
            try (ChildProcess client = start(jvmOptions, List.of("--client", transport.id(), port,
                    String.valueOf(options.windows), String.valueOf(options.window), String.valueOf(options.size)),
                    transport)) {
                String medians = client.lines().awaitPrefix("WINDOWS", 300, TimeUnit.SECONDS);
                List<Double> windows = new ArrayList<>();
                for (String value : medians.substring("WINDOWS".length()).trim().split(" ")) {
                    windows.add(Double.parseDouble(value));
                }
                client.waitFor(30);
                return windows;
            }
        }
    }

    private static ChildProcess start(List<String> jvmOptions, List<String> args, NettyTransport transport)
            throws java.io.IOException {
        ProcessBuilder builder = new ProcessBuilder(JavaCommand.of(FirstSecondBenchmark.class).jvmOptions(jvmOptions)
                .args(args).toList()).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(transport.environment());
        return ChildProcess.start(builder);
    }
}
