/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Spring Boot auto-configuration that runs Reactor Netty, and so WebFlux's server and Boot's {@code WebClient}s, on
 * the UCX transport when {@code netty.ucx.enabled=true}: see
 * {@link io.github.nettyucx.spring.boot.UcxReactorNettyAutoConfiguration}.
 */
package io.github.nettyucx.spring.boot;
