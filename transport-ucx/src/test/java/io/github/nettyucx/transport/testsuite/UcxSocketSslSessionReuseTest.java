/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketSslSessionReuseTest;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Netty's {@link SocketSslSessionReuseTest}, run on UCX server and client channels.
 *
 * <p>Upstream, {@code testSslSessionTrustManagerResumption} always runs with an OpenSSL pair of contexts as well
 * as a JDK pair, and the OpenSSL one fails to build wherever netty-tcnative is not on the class path (as in this
 * build), whatever the transport. The override runs the same test body with the OpenSSL pair only when OpenSSL
 * is available.
 */
@RequireUcx
class UcxSocketSslSessionReuseTest extends SocketSslSessionReuseTest {

    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().socket();
    }

    /** The upstream contexts, without the OpenSSL pair when OpenSSL cannot load here. */
    static Collection<Object[]> jdkAndAvailableOpenSsl() throws Exception {
        return OpenSsl.isAvailable() ? jdkAndOpenSSL() : jdkOnly();
    }

    @ParameterizedTest(name = "{index}: serverEngine = {0}, clientEngine = {1}")
    @MethodSource("jdkAndAvailableOpenSsl")
    @Timeout(value = 30000, unit = TimeUnit.MILLISECONDS)
    @Override
    public void testSslSessionTrustManagerResumption(SslContextBuilder serverCtx, SslContextBuilder clientCtx,
                                                     TestInfo testInfo) throws Throwable {
        super.testSslSessionTrustManagerResumption(serverCtx, clientCtx, testInfo);
    }
}
