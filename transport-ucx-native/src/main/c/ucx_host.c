/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * What the kernel says of the host's CPUs, for the loops' waiting (UcxIdlePolicy.java): how many threads are
 * runnable now, on every CPU together, and how many CPUs are online. Both are the host's, not a container's:
 * /proc/loadavg is not namespaced. Read here rather than in Java so that a sample allocates nothing and holds
 * no file open between samples.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ucx_host.h"

#define LOADAVG_PATH "/proc/loadavg"

/*
 * The running count of "1.20 0.98 0.75 3/412 12345": the fourth field's numerator, which counts the
 * threads running or waiting for a CPU at the moment of the read, the reader included. -1 when unreadable.
 */
static int parse_runnable(const char *text) {
    const char *field = text;
    for (int i = 0; i < 3; i++) {
        field = strchr(field, ' ');
        if (field == NULL) {
            return -1;
        }
        field++;
    }
    char *end;
    long runnable = strtol(field, &end, 10);
    return end == field || *end != '/' || runnable < 0 || runnable > INT32_MAX ? -1 : (int) runnable;
}

static jint java_host_runnable_threads(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    int fd = open(LOADAVG_PATH, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    char text[128];
    ssize_t n = read(fd, text, sizeof(text) - 1);
    close(fd);
    if (n <= 0) {
        return -1;
    }
    text[n] = '\0';
    return parse_runnable(text);
}

static jint java_host_online_cpus(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 && cpus <= INT32_MAX ? (jint) cpus : -1;
}

static const JNINativeMethod methods[] = {
    {"hostRunnableThreads", "()I", (void *) java_host_runnable_threads},
    {"hostOnlineCpus", "()I", (void *) java_host_online_cpus},
};

int nucx_register_host(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
