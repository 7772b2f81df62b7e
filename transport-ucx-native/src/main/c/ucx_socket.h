/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_socket.c: TCP sockets (side channels, plain connections, listeners). */
#ifndef NETTY_UCX_SOCKET_H
#define NETTY_UCX_SOCKET_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_socket(JNIEnv *env, jclass cls);

#endif
