/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Preloaded (LD_PRELOAD) into a peer by NoRandomnessTest: a kernel that gives no random bytes, as
 * getrandom does under a seccomp filter that refuses it or on kernels before 3.17.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/types.h>

ssize_t getrandom(void *buffer, size_t length, unsigned int flags) {
    (void) buffer;
    (void) length;
    (void) flags;
    errno = ENOSYS;
    return -1;
}
