/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_host.c: what the kernel says of the host's CPUs (runnable threads, online CPUs). */
#ifndef NETTY_UCX_HOST_H
#define NETTY_UCX_HOST_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_host(JNIEnv *env, jclass cls);

#endif
