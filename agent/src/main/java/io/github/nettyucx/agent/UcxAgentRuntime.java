/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.loop.UcxIoHandler;
import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.net.URL;
import java.security.CodeSource;
import java.util.List;
import java.util.Locale;

/**
 * The agent once it has decided to move the application: needs Netty 4.2 and the transport, so that
 * {@link UcxAgentHooks} loads it only after checking both. Decides which groups move, and logs the one line that
 * says where the transport and its JNI library come from.
 */
final class UcxAgentRuntime {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance("io.github.nettyucx.agent");

    private UcxAgentRuntime() {
    }

    /**
     * Makes the agent ready to move groups, or says why it cannot.
     *
     * @return {@code null}, or why UCX cannot run here (the caller's WARN)
     */
    static String activate(AgentSettings settings, List<String> weavingFailures) {
        if (!Ucx.isAvailable()) {
            Throwable cause = Ucx.unavailabilityCause();
            return "UCX cannot run here: " + (cause == null ? "no cause given" : cause.getMessage());
        }
        for (String failure : weavingFailures) {
            logger.warn("netty-ucx agent: could not change {}; the application's groups of that kind stay as they are",
                    failure);
        }
        logger.info("netty-ucx agent: moving Netty's {} event loop groups and their socket channels to UCX {};"
                        + " transport from {}, JNI library from {}; trust {}, plain TCP fallback {}",
                settings.transportsLabel(), Ucx.ucxVersion(), transportSource(), nativeSource(),
                System.getProperty("io.github.nettyucx.trust", "same-user (the default)"),
                Boolean.getBoolean("io.github.nettyucx." + AgentSettings.PLAIN_TCP_FALLBACK) ? "on" : "off");
        if (logger.isDebugEnabled()) {
            logger.debug("netty-ucx agent: woven into {}", UcxAgentHooks.woven());
        }
        UcxAgentReport.atExit(settings.metricsFile);
        return null;
    }

    static Object ioHandlerFactory(String handlerType, Object factory) {
        AgentSettings settings = UcxAgentHooks.settings();
        AgentSettings.Transport transport = transportOf(handlerType);
        if (transport == null || !settings.transports.contains(transport)) {
            return factory;
        }
        String creator = callerOutsideNetty();
        String thread = Thread.currentThread().getName();
        if (settings.excludes(creator, thread)) {
            logger.debug("netty-ucx agent: leaves the {} group made by {} on thread {} as it is (excluded)",
                    transport.label, creator, thread);
            return factory;
        }
        UcxAgentReport.groupMoved(transport);
        logger.debug("netty-ucx agent: a {} group made by {} on thread {} runs on UCX", transport.label, creator,
                thread);
        return UcxIoHandler.newFactory();
    }

    static Object channelFactory(Object factory) {
        return factory instanceof UcxChannelSwitch ? factory : UcxChannelSwitch.wrap(factory);
    }

    private static AgentSettings.Transport transportOf(String handlerType) {
        switch (handlerType) {
            case "io.netty.channel.nio.NioIoHandler":
                return AgentSettings.Transport.NIO;
            case "io.netty.channel.epoll.EpollIoHandler":
                return AgentSettings.Transport.EPOLL;
            case "io.netty.channel.uring.IoUringIoHandler":
                return AgentSettings.Transport.IO_URING;
            default:
                return null;
        }
    }

    /** The transport's packages, whose frames are the transport's own, not a caller's. */
    private static final List<String> TRANSPORT_PACKAGES = List.of("io.github.nettyucx.transport",
            "io.github.nettyucx.datapath", "io.github.nettyucx.handshake", "io.github.nettyucx.loop",
            "io.github.nettyucx.buffer", "io.github.nettyucx.jni");

    /** The first class on this thread's stack that is neither Netty's, the agent's nor the JDK's: who asked. */
    static String callerOutsideNetty() {
        return StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                .filter(c -> !c.startsWith("io.netty.") && !inPackage(c, UcxAgentRuntime.class.getPackageName())
                        && TRANSPORT_PACKAGES.stream().noneMatch(p -> inPackage(c, p))
                        && !c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun."))
                .findFirst().orElse("(Netty itself)"));
    }

    private static boolean inPackage(String className, String packageName) {
        return className.startsWith(packageName) && className.lastIndexOf('.') == packageName.length();
    }

    /** Where the transport's classes come from: the agent's jar, or another on the class path that came first. */
    private static String transportSource() {
        URL transport = location(UcxEventLoopGroup.class);
        URL agent = location(UcxAgent.class);
        if (transport != null && transport.equals(agent)) {
            return "the agent's jar (" + transport.getPath() + ")";
        }
        return "the application's class path (" + (transport == null ? "unknown" : transport.getPath()) + ")";
    }

    private static String nativeSource() {
        String name = "META-INF/native/lib" + "netty_ucx_native_" + PlatformDependent.normalizedArch() + ".so";
        URL url = UcxEventLoopGroup.class.getClassLoader() == null ? null
                : UcxEventLoopGroup.class.getClassLoader().getResource(name);
        if (url == null) {
            return "java.library.path";
        }
        String s = url.toString();
        int bang = s.indexOf("!/");
        String jar = bang > 0 ? s.substring(0, bang) : s;
        URL agent = location(UcxAgent.class);
        return agent != null && jar.toLowerCase(Locale.ROOT).endsWith(agent.getPath().toLowerCase(Locale.ROOT))
                ? "the agent's jar" : jar.replaceFirst("^jar:file:", "");
    }

    private static URL location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null ? null : source.getLocation();
    }
}
