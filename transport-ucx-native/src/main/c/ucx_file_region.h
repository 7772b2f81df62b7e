/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_file_region.c: the file descriptor behind a DefaultFileRegion, for sendfile(2). */
#ifndef NETTY_UCX_FILE_REGION_H
#define NETTY_UCX_FILE_REGION_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_file_region_open_fd(JNIEnv *env, jobject region);
NUCX_HIDDEN void nucx_file_bytes_sent(uint64_t n);
NUCX_HIDDEN int nucx_register_file_region(JNIEnv *env, jclass cls);
NUCX_HIDDEN void nucx_file_region_destroy(JNIEnv *env);

#endif
