package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Echo across two network namespaces ({@link TwoHosts}) over UCX's TCP transport, then the link is cut in the
 * middle of the stream: both ends must notice, like a dead peer. The time each end took is reported.
 */
class TwoHostTest {
    /** What the side channel's keepalive (10 s idle, 3 probes 2 s apart) and UCX's own allow, with margin. */
    private static final long DETECTION_SECONDS = 60;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void echoAcrossHostsThenCutTheLink() throws Exception {
        TestTransport.UCX.assumeAvailable();
        long streamSeconds = LongSuite.choose(5, 120);
        try (TwoHosts hosts = TwoHosts.create();
             ChildJvm server = hosts.start(1, ReliabilityPeer.class, "echo-server", TwoHosts.address(1))) {
            String port = server.awaitValue(ReliabilityPeer.PORT);
            try (ChildJvm client = hosts.start(0, ReliabilityPeer.class, "echo-client", TwoHosts.address(1), port)) {
                client.awaitLine(ReliabilityPeer.CONNECTED);
                long echoed = 0;
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(streamSeconds);
                while (System.nanoTime() < until) {
                    String line = client.awaitLine(ReliabilityPeer.ECHOED, 10);
                    assertFalse(line.contains("CORRUPT"), line);
                    echoed = Long.parseLong(line.substring(ReliabilityPeer.ECHOED.length()).trim().split(" ")[0]);
                }
                assertTrue(echoed > 0, "nothing echoed across the hosts; client output:\n" + client.output());
                System.out.println("two hosts: " + echoed + " messages of 16 KiB echoed in " + streamSeconds
                        + " s over UCX/TCP between " + TwoHosts.address(0) + " and " + TwoHosts.address(1));

                hosts.cutLink(0);
                long cutAt = System.nanoTime();
                String clientEnd = client.pollLine(ReliabilityPeer.INACTIVE, DETECTION_SECONDS);
                long clientMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                String serverEnd = server.pollLine(ReliabilityPeer.INACTIVE, Math.max(1, DETECTION_SECONDS
                        - TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - cutAt)));
                long serverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                System.out.println("two hosts, link cut on the client's side: client "
                        + (clientEnd == null ? "did NOT notice" : "inactive after " + clientMillis + " ms") + ", server "
                        + (serverEnd == null ? "did NOT notice" : "inactive after " + serverMillis + " ms")
                        + " (within " + DETECTION_SECONDS + " s)\nclient exceptions: "
                        + exceptions(client) + "\nserver exceptions: " + exceptions(server));
                assertNotNull(clientEnd, "the client did not notice the cut link within " + DETECTION_SECONDS
                        + " s; output:\n" + client.output());
                assertNotNull(serverEnd, "the server did not notice the cut link within " + DETECTION_SECONDS
                        + " s; output:\n" + server.output());
            }
        }
    }

    private static String exceptions(ChildJvm child) {
        StringBuilder out = new StringBuilder();
        for (String line : child.output().split("\n")) {
            if (line.startsWith(ReliabilityPeer.EXCEPTION)) {
                out.append("\n  ").append(line);
            }
        }
        return out.toString();
    }
}
