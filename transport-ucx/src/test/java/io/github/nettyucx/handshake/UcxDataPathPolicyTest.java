/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.github.nettyucx.handshake.UcxDataPathPolicy.Choice;
import org.junit.jupiter.api.Test;

import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_ACCEPTS;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_INSISTS;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_NETWORK;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_SHARED_MEMORY;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_TRUSTS;
import static io.github.nettyucx.handshake.UcxDataPathPolicy.FLAG_UCX_TCP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@link UcxDataPathPolicy#choose}: UCX only between peers that both trust each other, the TCP data path between
 * others that both accept it, and no connection otherwise; both ends choose alike. UCX only where the two UCX contexts
 * share a transport that reaches across. Every combination of the six flags on both sides, on one host and across
 * hosts. No native library.
 */
class UcxDataPathPolicyTest {
    private static final int ALL_FLAGS = FLAG_ACCEPTS | FLAG_SHARED_MEMORY | FLAG_NETWORK | FLAG_INSISTS | FLAG_TRUSTS
            | FLAG_UCX_TCP;

    @Test
    void theFlagsAreThoseOnTheWire() {
        assertEquals(1, FLAG_ACCEPTS);
        assertEquals(2, FLAG_SHARED_MEMORY);
        assertEquals(4, FLAG_NETWORK);
        assertEquals(8, FLAG_INSISTS);
        assertEquals(16, FLAG_TRUSTS);
        assertEquals(32, FLAG_UCX_TCP);
    }

    @Test
    void withoutMutualTrustNeverUcx() {
        for (int ours = 0; ours <= ALL_FLAGS; ours++) {
            for (int theirs = 0; theirs <= ALL_FLAGS; theirs++) {
                if ((ours & theirs & FLAG_TRUSTS) != 0) {
                    continue;
                }
                for (boolean sameHost : new boolean[] {true, false}) {
                    Choice expected = (ours & theirs & FLAG_ACCEPTS) != 0 ? Choice.TCP : Choice.NONE;
                    assertEquals(expected, UcxDataPathPolicy.choose(ours, theirs, sameHost), describe(ours, theirs,
                            sameHost));
                }
            }
        }
    }

    @Test
    void withMutualTrustUcxUnlessTheTcpDataPathIsChosenOrNoTransportReaches() {
        for (int ours = FLAG_TRUSTS; ours <= ALL_FLAGS; ours++) {
            for (int theirs = FLAG_TRUSTS; theirs <= ALL_FLAGS; theirs++) {
                if ((ours & theirs & FLAG_TRUSTS) == 0) {
                    continue;
                }
                for (boolean sameHost : new boolean[] {true, false}) {
                    Choice choice = UcxDataPathPolicy.choose(ours, theirs, sameHost);
                    Choice expected = UcxDataPathPolicy.streamChosen(ours, theirs, sameHost) ? Choice.TCP
                            : UcxDataPathPolicy.ucxReaches(ours, theirs, sameHost) ? Choice.UCX : Choice.NONE;
                    assertEquals(expected, choice, describe(ours, theirs, sameHost));
                    if ((ours & theirs & FLAG_ACCEPTS) != 0) {
                        assertNotEquals(Choice.NONE, choice, "trusted peers that both accept the TCP data path are "
                                + "never refused: " + describe(ours, theirs, sameHost));
                    }
                }
            }
        }
    }

    @Test
    void bothEndsChooseAlike() {
        for (int ours = 0; ours <= ALL_FLAGS; ours++) {
            for (int theirs = 0; theirs <= ALL_FLAGS; theirs++) {
                for (boolean sameHost : new boolean[] {true, false}) {
                    assertEquals(UcxDataPathPolicy.choose(ours, theirs, sameHost),
                            UcxDataPathPolicy.choose(theirs, ours, sameHost), describe(ours, theirs, sameHost));
                }
            }
        }
    }

    @Test
    void typicalPeers() {
        int shm = FLAG_ACCEPTS | FLAG_SHARED_MEMORY;
        assertEquals(Choice.UCX, UcxDataPathPolicy.choose(shm | FLAG_TRUSTS, shm | FLAG_TRUSTS, true),
                "trusted, one host, shared memory on both");
        assertEquals(Choice.TCP, UcxDataPathPolicy.choose(shm, shm | FLAG_TRUSTS, true),
                "only the peer trusts: no UCX, whatever the transports");
        assertEquals(Choice.TCP, UcxDataPathPolicy.choose(shm | FLAG_TRUSTS, shm, true),
                "only this side trusts");
        int rdma = FLAG_ACCEPTS | FLAG_NETWORK;
        assertEquals(Choice.UCX, UcxDataPathPolicy.choose(rdma | FLAG_TRUSTS, rdma | FLAG_TRUSTS, false),
                "trusted, RDMA on both");
        assertEquals(Choice.TCP, UcxDataPathPolicy.choose(rdma, rdma, false), "untrusted RDMA peers");
        assertEquals(Choice.NONE, UcxDataPathPolicy.choose(FLAG_SHARED_MEMORY, shm | FLAG_TRUSTS, true),
                "this side has the TCP data path off and does not trust the peer");
        assertEquals(Choice.NONE, UcxDataPathPolicy.choose(shm, FLAG_NETWORK | FLAG_TRUSTS, false),
                "the peer has the TCP data path off and this side does not trust it");
        assertEquals(Choice.UCX, UcxDataPathPolicy.choose(FLAG_TRUSTS | FLAG_UCX_TCP, FLAG_TRUSTS | FLAG_UCX_TCP,
                false), "trusted peers with the TCP data path off: UCX's own tcp transport");
        assertEquals(Choice.NONE, UcxDataPathPolicy.choose(FLAG_TRUSTS | FLAG_UCX_TCP, FLAG_ACCEPTS | FLAG_TRUSTS,
                false), "one side with the TCP data path off, the other without UCX's tcp transport: refused");
        assertEquals(Choice.UCX, UcxDataPathPolicy.choose(FLAG_TRUSTS | FLAG_UCX_TCP | FLAG_SHARED_MEMORY,
                shm | FLAG_TRUSTS, true), "one side with the TCP data path off, on one host: shared memory");
        assertEquals(Choice.TCP, UcxDataPathPolicy.choose(FLAG_ACCEPTS | FLAG_TRUSTS,
                FLAG_ACCEPTS | FLAG_INSISTS | FLAG_TRUSTS | FLAG_SHARED_MEMORY, true), "a trusted peer that insists");
    }

    private static String describe(int ours, int theirs, boolean sameHost) {
        return "ours " + Integer.toBinaryString(ours) + ", theirs " + Integer.toBinaryString(theirs)
                + (sameHost ? ", same host" : ", other hosts");
    }
}
