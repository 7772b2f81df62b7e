/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.spring.boot;

import io.github.nettyucx.spring.boot.app.UcxWebFluxApp;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With {@code netty.ucx.enabled=true} where UCX cannot run, the start fails and Spring Boot's report says why (the
 * transport's cause) and what to do: install UCX, or turn the property off.
 */
class UcxUnavailableFailureAnalyzerTest {
    @Test
    void analysisNamesTheCauseAndBothWaysOut() {
        UnsatisfiedLinkError why = new UnsatisfiedLinkError("libucp (UCX) is not installed");
        UcxUnavailableException failure = new UcxUnavailableException(why);
        FailureAnalysis analysis = new UcxUnavailableFailureAnalyzer().analyze(
                new BeanCreationException("reactorResourceFactory", "creation failed", failure));
        assertNotNull(analysis, "the analyzer did not find the exception in the cause chain");
        assertSame(failure, analysis.getCause());
        assertTrue(analysis.getDescription().contains("netty.ucx.enabled=true"), analysis.getDescription());
        assertTrue(analysis.getDescription().contains(why.getMessage()), analysis.getDescription());
        assertTrue(analysis.getAction().contains("apt-get install -y " + UcxUnavailableFailureAnalyzer.PACKAGE),
                analysis.getAction());
        assertTrue(analysis.getAction().contains("netty.ucx.enabled=false"), analysis.getAction());
    }

    @Test
    void otherFailuresAreLeftToOtherAnalyzers() {
        assertNull(new UcxUnavailableFailureAnalyzer().analyze(new IllegalStateException("something else")));
    }

    /**
     * A WebFlux application in a JVM whose UCX settings the transport refuses (a shared-memory segment larger than
     * UCX's queue can describe) does not start, and prints the analysis: the analyzer is registered, and the
     * exception reaches it from where the starter throws it.
     */
    @Test
    void anApplicationWhereUcxCannotRunReportsIt() throws Exception {
        try (ChildJvm app = new ChildJvm(Map.of("UCX_MM_SEG_SIZE", "1m"), UcxWebFluxApp.class,
                "--netty.ucx.enabled=true", "--server.address=127.0.0.1", "--server.port=0",
                "--spring.main.banner-mode=off")) {
            int status = app.awaitExit(60);
            String output = app.output();
            assertNotEquals(0, status, output);
            assertTrue(output.contains("APPLICATION FAILED TO START"), output);
            assertTrue(output.contains("but UCX cannot run here"), output);
            assertTrue(output.contains("UCX_MM_SEG_SIZE"), "the transport's cause names the variable:\n" + output);
            assertTrue(output.contains("set netty.ucx.enabled=false"), output);
        }
    }
}
