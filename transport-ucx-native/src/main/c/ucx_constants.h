/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_constants.c: the values of ucx_native.h, one native method of UcxNativeConstants each. */
#ifndef NETTY_UCX_CONSTANTS_H
#define NETTY_UCX_CONSTANTS_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_register_constants(JNIEnv *env, jclass cls);

#endif
