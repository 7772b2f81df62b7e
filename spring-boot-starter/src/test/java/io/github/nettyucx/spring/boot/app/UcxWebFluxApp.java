/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot.app;

import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * A WebFlux application, run by {@code WebFluxOverUcxTest} in a JVM of its own with {@code netty.ucx.enabled=true}:
 * it answers {@code /hello}, echoes what is posted to {@code /echo}, and describes at {@code /transport} the connection
 * a request came on (its channel class, the thread that serves it, and how its bytes travel). Once its server is up,
 * it prints {@value #PORT_LINE} and the port.
 */
@SpringBootApplication
public class UcxWebFluxApp {
    public static final String PORT_LINE = "UCX-WEBFLUX-PORT=";

    public static void main(String[] args) {
        SpringApplication.run(UcxWebFluxApp.class, args);
    }

    @Bean
    RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route()
                .GET("/hello", request -> ServerResponse.ok().bodyValue("hello"))
                .POST("/echo", request -> ServerResponse.ok().body(request.bodyToFlux(DataBuffer.class),
                        DataBuffer.class))
                .GET("/transport", UcxWebFluxApp::transport)
                .build();
    }

    @Bean
    ApplicationListener<WebServerInitializedEvent> portPrinter() {
        return event -> System.out.println(PORT_LINE + event.getWebServer().getPort());
    }

    /** {@code class=...}, {@code thread=...} and {@code lanes=...}, a line each, of this request's connection. */
    private static Mono<ServerResponse> transport(ServerRequest request) {
        Connection connection = ServerHttpRequestDecorator.getNativeRequest(request.exchange().getRequest());
        Channel channel = connection.channel();
        String head = "class=" + channel.getClass().getName() + "\nthread=" + Thread.currentThread().getName();
        Mono<String> lanes = channel instanceof UcxSocketChannel ? Mono.create(sink ->
                ((UcxSocketChannel) channel).ucxLanes().addListener(done -> sink.success(
                        done.isSuccess() ? String.valueOf(done.getNow()) : String.valueOf(done.cause()))))
                : Mono.just("not a UCX channel");
        return lanes.flatMap(text -> ServerResponse.ok().bodyValue(head + "\nlanes=" + text));
    }
}
