/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The agent's arguments: {@code -javaagent:netty-ucx-agent.jar=name=value,name=value}. A value may hold commas
 * (lists, and the trust rule's {@code secret-file:A,secret-file:B}): a segment starts a new argument only where it
 * begins with {@code name=}. The agent's own names are {@link #TRANSPORTS}, {@link #EXCLUDE_PACKAGES},
 * {@link #EXCLUDE_THREADS} and {@link #METRICS_FILE}; every other name is a transport setting with the name of its
 * system property less {@code io.github.nettyucx.} (docs/settings.md), such as {@code trust} or
 * {@code plainTcpFallback}. No code here touches Netty: it runs in premain, before the application has loaded it.
 */
final class AgentSettings {
    static final String TRANSPORTS = "transports";
    static final String EXCLUDE_PACKAGES = "excludePackages";
    static final String EXCLUDE_THREADS = "excludeThreads";
    static final String METRICS_FILE = "metricsFile";
    static final String PROPERTY_PREFIX = "io.github.nettyucx.";
    static final String PLAIN_TCP_FALLBACK = "plainTcpFallback";

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.]*=.*", Pattern.DOTALL);

    /** The Netty transports the agent can replace, by the name the arguments and logs use. */
    enum Transport {
        NIO("nio"), EPOLL("epoll"), IO_URING("io_uring");

        final String label;

        Transport(String label) {
            this.label = label;
        }

        static Transport of(String label) {
            for (Transport t : values()) {
                if (t.label.equals(label)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown transport '" + label + "' in " + TRANSPORTS
                    + "= (known: nio, epoll, io_uring)");
        }
    }

    final Set<Transport> transports;
    final List<String> excludePackages;
    final List<String> excludeThreads;
    final String metricsFile;
    /** Transport settings by system property name, in the order given. */
    final Map<String, String> properties;

    private AgentSettings(Set<Transport> transports, List<String> excludePackages, List<String> excludeThreads,
                          String metricsFile, Map<String, String> properties) {
        this.transports = Collections.unmodifiableSet(transports);
        this.excludePackages = Collections.unmodifiableList(excludePackages);
        this.excludeThreads = Collections.unmodifiableList(excludeThreads);
        this.metricsFile = metricsFile;
        this.properties = Collections.unmodifiableMap(properties);
    }

    /**
     * Parses the agent's argument string ({@code null} or empty: all defaults).
     *
     * @throws IllegalArgumentException naming the argument that is wrong and what it may be
     */
    static AgentSettings parse(String args) {
        Map<String, String> pairs = new LinkedHashMap<>();
        String name = null;
        if (args != null && !args.isEmpty()) {
            for (String segment : args.split(",", -1)) {
                if (NAME.matcher(segment).matches()) {
                    int eq = segment.indexOf('=');
                    name = segment.substring(0, eq);
                    if (pairs.containsKey(name)) {
                        throw new IllegalArgumentException("the agent argument " + name + " is given twice; give it"
                                + " once, with its values separated by commas");
                    }
                    pairs.put(name, segment.substring(eq + 1));
                } else if (name != null) {
                    pairs.put(name, pairs.get(name) + ',' + segment);
                } else {
                    throw new IllegalArgumentException("the agent arguments '" + args + "' do not start with name=value"
                            + " (for example -javaagent:netty-ucx-agent.jar=transports=nio,epoll); see docs/agent.md");
                }
            }
        }

        Set<Transport> transports = EnumSet.allOf(Transport.class);
        String list = pairs.remove(TRANSPORTS);
        if (list != null) {
            transports = EnumSet.noneOf(Transport.class);
            for (String t : items(list)) {
                transports.add(Transport.of(t.toLowerCase(Locale.ROOT)));
            }
        }
        List<String> packages = items(pairs.remove(EXCLUDE_PACKAGES));
        List<String> threads = items(pairs.remove(EXCLUDE_THREADS));
        String metricsFile = pairs.remove(METRICS_FILE);
        if (metricsFile != null && metricsFile.isEmpty()) {
            throw new IllegalArgumentException(METRICS_FILE + "= needs a path (%p in it becomes the process id)");
        }

        Map<String, String> properties = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : pairs.entrySet()) {
            properties.put(PROPERTY_PREFIX + e.getKey(), e.getValue());
        }
        // A client moved to UCX must still reach the application's other servers (databases, HTTP services) that do
        // not speak netty-ucx: without the fallback, such a connect fails where the application's own worked.
        properties.putIfAbsent(PROPERTY_PREFIX + PLAIN_TCP_FALLBACK, "true");
        return new AgentSettings(transports, packages, threads, metricsFile, properties);
    }

    /** Whether code of {@code className}, running on {@code threadName}, is left on its own transport. */
    boolean excludes(String className, String threadName) {
        for (String p : excludePackages) {
            if (className != null && (className.startsWith(p.endsWith(".") ? p : p + '.') || className.equals(p))) {
                return true;
            }
        }
        for (String t : excludeThreads) {
            if (threadName.startsWith(t)) {
                return true;
            }
        }
        return false;
    }

    String transportsLabel() {
        StringBuilder b = new StringBuilder();
        for (Transport t : transports) {
            b.append(b.length() == 0 ? "" : ", ").append(t.label);
        }
        return b.length() == 0 ? "none" : b.toString();
    }

    private static List<String> items(String list) {
        List<String> items = new ArrayList<>();
        if (list != null) {
            for (String s : list.split(",")) {
                String item = s.trim();
                if (!item.isEmpty()) {
                    items.add(item);
                }
            }
        }
        return items;
    }
}
