/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.grpc.internal.ObjectPool;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hands {@link SharedGroup}s to grpc-netty's builders the way grpc-netty hands them its own default groups: as an
 * {@code io.grpc.internal.ObjectPool}, from which a server takes its groups when it is built and to which it gives
 * them back once it and all its connections have terminated; a channel likewise, through its transport factory,
 * when the channel has terminated. A builder that is never built takes nothing.
 *
 * <p>grpc-netty 1.85 keeps the builder methods that take a pool package-private
 * ({@code NettyServerBuilder.bossEventLoopGroupPool} and {@code workerEventLoopGroupPool},
 * {@code NettyChannelBuilder.eventLoopGroupPool}); the public ones take a group and wrap it in a pool that never
 * gives it back, since they are for a group that the caller owns. So this class calls the pool methods by
 * reflection. grpc-netty's jar is an automatic module, which opens its packages to every module, so this works
 * on the module path as on the class path. Should those methods be missing or not callable (another grpc-netty
 * release, a grpc-netty that became a named module without opening {@code io.grpc.netty}), or should calling one
 * fail, each builder gets its group through the public method, with a reference that is never given back: the
 * groups then live until the JVM exits, as they did before they were counted, and one WARN line names the cause
 * and the fix.
 */
final class GrpcNettyPools {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(GrpcNettyPools.class);

    /** The pools of the grpc-netty on the class or module path. */
    static final GrpcNettyPools INSTANCE = find();

    private final Method bossPool;
    private final Method workerPool;
    private final Method channelPool;
    private final AtomicBoolean warned = new AtomicBoolean();
    /** Why the builders do not give their groups back, or null while they do. */
    private volatile Throwable uncounted;

    /** Null methods, with {@code whyNot} saying why, make every builder take its group through the public method. */
    GrpcNettyPools(Method bossPool, Method workerPool, Method channelPool, Throwable whyNot) {
        this.bossPool = bossPool;
        this.workerPool = workerPool;
        this.channelPool = channelPool;
        this.uncounted = bossPool == null || workerPool == null || channelPool == null ? whyNot : null;
    }

    private static GrpcNettyPools find() {
        Throwable[] whyNot = new Throwable[1];
        Method boss = poolMethod(NettyServerBuilder.class, "bossEventLoopGroupPool", whyNot);
        Method worker = poolMethod(NettyServerBuilder.class, "workerEventLoopGroupPool", whyNot);
        Method channel = poolMethod(NettyChannelBuilder.class, "eventLoopGroupPool", whyNot);
        return new GrpcNettyPools(boss, worker, channel, whyNot[0]);
    }

    /** Whether the builders give their groups back (false: the groups live until the JVM exits). */
    static boolean counted() {
        return INSTANCE.uncounted == null;
    }

    /** {@code builder} with its listeners accepting on {@code boss} and its connections served on {@code worker}. */
    static NettyServerBuilder serverGroups(NettyServerBuilder builder, SharedGroup boss, SharedGroup worker) {
        return INSTANCE.server(builder, boss, worker);
    }

    /** {@code builder} with its connections on {@code worker}. */
    static NettyChannelBuilder channelGroup(NettyChannelBuilder builder, SharedGroup worker) {
        return INSTANCE.channel(builder, worker);
    }

    NettyServerBuilder server(NettyServerBuilder builder, SharedGroup boss, SharedGroup worker) {
        if (uncounted == null && invoke(bossPool, builder, boss) && invoke(workerPool, builder, worker)) {
            return builder;
        }
        warnUncounted();
        // Replaces a pool set above, before the builder took anything from it.
        return builder.bossEventLoopGroup(boss.take()).workerEventLoopGroup(worker.take());
    }

    NettyChannelBuilder channel(NettyChannelBuilder builder, SharedGroup worker) {
        if (uncounted == null && invoke(channelPool, builder, worker)) {
            return builder;
        }
        warnUncounted();
        return builder.eventLoopGroup(worker.take());
    }

    /** Whether the pool method took a pool of {@code group}; false, with the cause kept, when calling it failed. */
    private boolean invoke(Method method, Object builder, SharedGroup group) {
        try {
            method.invoke(builder, new Pool(group));
            return true;
        } catch (InvocationTargetException e) {
            uncounted = e.getCause() != null ? e.getCause() : e;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // IllegalAccessException, or IllegalArgumentException: the method is not what it was when looked up.
            uncounted = e;
        }
        return false;
    }

    /**
     * The builder's package-private method that takes a pool, made callable, or null when there is none; the first
     * reason why not goes to {@code whyNot[0]}.
     */
    private static Method poolMethod(Class<?> builder, String name, Throwable[] whyNot) {
        try {
            Method method = builder.getDeclaredMethod(name, ObjectPool.class);
            method.setAccessible(true);
            return method;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // RuntimeException: InaccessibleObjectException or SecurityException; LinkageError: no ObjectPool.
            if (whyNot[0] == null) {
                whyNot[0] = e;
            }
            return null;
        }
    }

    private void warnUncounted() {
        if (!warned.compareAndSet(false, true)) {
            return;
        }
        Throwable cause = uncounted;
        String fix = cause instanceof InaccessibleObjectException
                ? "open grpc-netty's package to netty-ucx-grpc (--add-opens io.grpc.netty/io.grpc.netty="
                        + "io.github.nettyucx.grpc), or put grpc-netty on the class path"
                : "use grpc-netty 1.85.x, the release netty-ucx-grpc is built and tested with";
        logger.warn("the gRPC UCX providers cannot hand grpc-netty their event loop groups as a pool "
                + "(NettyServerBuilder.bossEventLoopGroupPool/workerEventLoopGroupPool, "
                + "NettyChannelBuilder.eventLoopGroupPool, package-private in grpc-netty 1.85): " + cause + ". The "
                + "servers and channels still run on UCX, but the shared UCX event loops now stay until the JVM "
                + "exits instead of going one second after their last server or channel, which leaks their threads "
                + "in an application that is redeployed. Fix: " + fix + '.', cause);
    }

    /** grpc's view of a {@link SharedGroup}: a take per {@code getObject}, a give per {@code returnObject}. */
    private static final class Pool implements ObjectPool<EventLoopGroup> {
        private final SharedGroup group;

        Pool(SharedGroup group) {
            this.group = group;
        }

        @Override
        public EventLoopGroup getObject() {
            return group.take();
        }

        @Override
        public EventLoopGroup returnObject(Object object) {
            group.give((EventLoopGroup) object);
            return null;
        }
    }
}
