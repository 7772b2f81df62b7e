/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The Spring Boot starter: auto-configuration that puts a WebFlux server and Boot's Reactor Netty resources on the
 * UCX transport, its properties ({@code netty.ucx.*}) and its failure analysis. Spring reads and proxies the
 * configuration classes reflectively, so the package is open; Micrometer is optional (the meters are registered
 * when it and {@code io.github.nettyucx.micrometer} are present).
 */
module io.github.nettyucx.spring.boot {
    requires io.github.nettyucx.reactor;
    requires io.github.nettyucx.transport;
    requires reactor.core;
    requires reactor.netty.core;
    requires reactor.netty.http;
    requires spring.boot;
    requires spring.boot.autoconfigure;
    requires spring.boot.reactor.netty;
    requires spring.context;
    requires spring.core;
    requires spring.web;
    requires static io.github.nettyucx.micrometer;
    requires static micrometer.core;

    exports io.github.nettyucx.spring.boot;
    opens io.github.nettyucx.spring.boot;
}
