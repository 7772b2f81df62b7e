/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_plain.c: gathering writes and sendfile for plain TCP connections. */
#ifndef NETTY_UCX_PLAIN_H
#define NETTY_UCX_PLAIN_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_plain(JNIEnv *env, jclass cls);

#endif
