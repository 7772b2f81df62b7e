/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_errors.c: Java exceptions thrown from native code, and the text of a status. */
#ifndef NETTY_UCX_ERRORS_H
#define NETTY_UCX_ERRORS_H

#include "ucx_native.h"

NUCX_HIDDEN void nucx_throw_io(JNIEnv *env, const char *what, const char *detail);
NUCX_HIDDEN void nucx_throw_errno(JNIEnv *env, const char *what, int err);
NUCX_HIDDEN void nucx_throw_ucs(JNIEnv *env, const char *what, ucs_status_t status);
NUCX_HIDDEN const char *nucx_status_string(int32_t status);
NUCX_HIDDEN void nucx_throw_connect(JNIEnv *env, int err);
NUCX_HIDDEN void nucx_throw_port_unreachable(JNIEnv *env, const char *what);
NUCX_HIDDEN int nucx_errors_init(JNIEnv *env);
NUCX_HIDDEN void nucx_errors_destroy(JNIEnv *env);

#endif
