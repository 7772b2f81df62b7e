/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_thread.c: the calling thread's scheduling (the time slice it asks the kernel for). */
#ifndef NETTY_UCX_THREAD_H
#define NETTY_UCX_THREAD_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_thread(JNIEnv *env, jclass cls);

#endif
