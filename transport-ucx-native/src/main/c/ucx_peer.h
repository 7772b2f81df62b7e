/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_peer.c: the owner of the socket at the other end of a TCP connection on this host. */
#ifndef NETTY_UCX_PEER_H
#define NETTY_UCX_PEER_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_peer(JNIEnv *env, jclass cls);

#endif
