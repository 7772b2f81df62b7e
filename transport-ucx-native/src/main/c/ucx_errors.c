/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Java exceptions thrown by natives. Classes are resolved once at load time because FindClass from
 * an event-loop thread would use the wrong class loader.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "ucx_errors.h"

static jclass io_exception;
static jclass connect_exception;
static jclass port_unreachable_exception;

static jclass global_class(JNIEnv *env, const char *name) {
    jclass local = (*env)->FindClass(env, name);
    if (local == NULL) {
        return NULL;
    }
    jclass global = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return global;
}

int nucx_errors_init(JNIEnv *env) {
    io_exception = global_class(env, "java/io/IOException");
    connect_exception = global_class(env, "java/net/ConnectException");
    port_unreachable_exception = global_class(env, "java/net/PortUnreachableException");
    return io_exception != NULL && connect_exception != NULL && port_unreachable_exception != NULL ? 0 : -1;
}

void nucx_errors_destroy(JNIEnv *env) {
    if (io_exception != NULL) {
        (*env)->DeleteGlobalRef(env, io_exception);
        io_exception = NULL;
    }
    if (connect_exception != NULL) {
        (*env)->DeleteGlobalRef(env, connect_exception);
        connect_exception = NULL;
    }
    if (port_unreachable_exception != NULL) {
        (*env)->DeleteGlobalRef(env, port_unreachable_exception);
        port_unreachable_exception = NULL;
    }
}

void nucx_throw_io(JNIEnv *env, const char *what, const char *detail) {
    char message[512];
    snprintf(message, sizeof(message), "%s: %s", what, detail);
    (*env)->ThrowNew(env, io_exception, message);
}

void nucx_throw_errno(JNIEnv *env, const char *what, int err) {
    char buf[256];
    /* GNU strerror_r may return a static string instead of filling buf. */
    const char *text = strerror_r(err, buf, sizeof(buf));
    nucx_throw_io(env, what, text);
}

/* A ucs_status_t, or one of our NUCX_ERR_* codes (which do not fit the packed enum). */
const char *nucx_status_string(int32_t status) {
    if (status == NUCX_ERR_OUTSIDE_WINDOW) {
        return "protocol violation: the peer sent a message outside its credit window or repeated a sequence number";
    }
    if (status == NUCX_ERR_BAD_CREDITS) {
        return "protocol violation: the peer returned credits for messages that were never sent";
    }
    return ucs_status_string((ucs_status_t) status);
}

void nucx_throw_ucs(JNIEnv *env, const char *what, ucs_status_t status) {
    nucx_throw_io(env, what, nucx_status_string(status));
}

void nucx_throw_connect(JNIEnv *env, int err) {
    char buf[256];
    const char *text = strerror_r(err, buf, sizeof(buf));
    (*env)->ThrowNew(env, connect_exception, text);
}

/* ECONNREFUSED on a connected datagram socket: the peer's host answered that nothing listens on the port. */
void nucx_throw_port_unreachable(JNIEnv *env, const char *what) {
    char message[256];
    snprintf(message, sizeof(message), "%s: ICMP port unreachable (nothing listens on the connected address)",
             what);
    (*env)->ThrowNew(env, port_unreachable_exception, message);
}
