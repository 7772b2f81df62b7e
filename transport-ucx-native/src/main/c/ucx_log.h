/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_log.c: UCX's log, through Netty's logger. */
#ifndef NETTY_UCX_LOG_H
#define NETTY_UCX_LOG_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_log(JNIEnv *env, jclass cls);
NUCX_HIDDEN void nucx_log_destroy(JNIEnv *env);

#endif
