/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_datagram.c: UDP sockets. */
#ifndef NETTY_UCX_DATAGRAM_H
#define NETTY_UCX_DATAGRAM_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_datagram(JNIEnv *env, jclass cls);

#endif
