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
 * on the module path as on the class path. Should a grpc-netty release lack those methods, each builder gets its
 * group through the public method, with a reference that is never given back: the groups then live until the JVM
 * exits, as they did before they were counted, and one WARN line says so.
 */
final class GrpcNettyPools {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(GrpcNettyPools.class);

    private static final Method BOSS_POOL = poolMethod(NettyServerBuilder.class, "bossEventLoopGroupPool");
    private static final Method WORKER_POOL = poolMethod(NettyServerBuilder.class, "workerEventLoopGroupPool");
    private static final Method CHANNEL_POOL = poolMethod(NettyChannelBuilder.class, "eventLoopGroupPool");
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private GrpcNettyPools() {
    }

    /** Whether the builders give their groups back (false: the groups live until the JVM exits). */
    static boolean counted() {
        return BOSS_POOL != null && WORKER_POOL != null && CHANNEL_POOL != null;
    }

    /** {@code builder} with its listeners accepting on {@code boss} and its connections served on {@code worker}. */
    static NettyServerBuilder serverGroups(NettyServerBuilder builder, SharedGroup boss, SharedGroup worker) {
        if (!counted()) {
            warnUncounted();
            return builder.bossEventLoopGroup(boss.take()).workerEventLoopGroup(worker.take());
        }
        invoke(BOSS_POOL, builder, boss);
        invoke(WORKER_POOL, builder, worker);
        return builder;
    }

    /** {@code builder} with its connections on {@code worker}. */
    static NettyChannelBuilder channelGroup(NettyChannelBuilder builder, SharedGroup worker) {
        if (!counted()) {
            warnUncounted();
            return builder.eventLoopGroup(worker.take());
        }
        invoke(CHANNEL_POOL, builder, worker);
        return builder;
    }

    private static void invoke(Method method, Object builder, SharedGroup group) {
        try {
            method.invoke(builder, new Pool(group));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("grpc-netty refused " + method + " after it was made accessible", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(method + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** The builder's package-private method that takes a pool, made callable, or null when there is none. */
    private static Method poolMethod(Class<?> builder, String name) {
        try {
            Method method = builder.getDeclaredMethod(name, ObjectPool.class);
            method.setAccessible(true);
            return method;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // RuntimeException: InaccessibleObjectException or SecurityException; LinkageError: no ObjectPool.
            logger.debug("grpc-netty's {}.{}(ObjectPool) cannot be called", builder.getSimpleName(), name, e);
            return null;
        }
    }

    private static void warnUncounted() {
        if (WARNED.compareAndSet(false, true)) {
            logger.warn("this grpc-netty has no NettyServerBuilder.bossEventLoopGroupPool/workerEventLoopGroupPool "
                    + "or NettyChannelBuilder.eventLoopGroupPool (package-private in grpc-netty 1.85): the gRPC UCX "
                    + "event loops stay until the JVM exits instead of going one second after their last server "
                    + "or channel. Fix: use grpc-netty 1.85.x, which netty-ucx-grpc is built with (DEBUG logging of "
                    + "{} says why the methods could not be called)", GrpcNettyPools.class.getName());
        }
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
