/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The child JVM of {@link ChildProcessTest}: prints what it was started with, then either echoes its standard
 * input until it ends and exits 3 ({@code echo}), or ignores its input and sleeps ({@code hang}).
 */
public final class EchoChild {
    private EchoChild() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ARGS " + String.join(",", args));
        System.out.println("ENV " + System.getenv("SUPPORT_TEST_VARIABLE"));
        System.out.println("PROPERTY " + System.getProperty(ChildProcessTest.FORWARDED));
        System.out.println("OPTION " + System.getProperty("support.test.option"));
        System.out.flush();
        if ("hang".equals(args[0])) {
            Thread.sleep(Long.MAX_VALUE);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            System.out.println("ECHO " + line);
            System.out.flush();
        }
        System.exit(3);
    }
}
