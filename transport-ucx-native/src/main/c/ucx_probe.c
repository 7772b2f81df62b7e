/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The shared-memory probe of a worker (bug 12 in docs/reliability.md).
 *
 * UCX 1.13's shared-memory (mm) transport gives each worker one receive queue that every same-host
 * peer writes into: a writer claims an element, copies its message in, then marks the element
 * written, and the worker reads the elements in order. A peer killed between claiming and marking
 * leaves an element that is never marked: the worker receives nothing more from any same-host
 * peer, and UCX reports no error. So after a same-host peer vanished, Java sends one message to the
 * loop's worker from a second worker of this process, over the same shared-memory transport the
 * peers use; when it does not arrive, the loop replaces its UCP worker (ucx_worker.c). Each probe
 * has a worker of its own, freed with it: a UCP worker holds a dozen descriptors and shared memory.
 */
#include <stdlib.h>
#include "ucx_probe.h"
#include "ucx_context.h"
#include "ucx_errors.h"
#include "ucx_worker.h"

/* Connection id 0 is never given out (ucx_conn.c), so no connection's receive can take the probe. */
#define NUCX_PROBE_TAG NUCX_TAG_CTRL_BIT
#define NUCX_PROBE_TAG_MASK 0xFFFFFFFFFFFFFFFFull
/* How long freeing the probe waits for its force-closed endpoint. */
#define NUCX_PROBE_CLOSE_NANOS 100000000ull

struct nucx_probe {
    ucp_worker_h worker;   /* the sender: this process's, but not the loop's worker */
    ucp_ep_h ep;           /* from it to the loop's worker */
    void *recv_req;        /* posted on the loop's worker, until it completes */
    int in_flight;         /* requests whose callbacks have not run: they write into this struct */
    int arrived;
    uint64_t recv_buf;
    uint64_t send_buf;
};

static void probe_recv_callback(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info,
                                void *user_data) {
    (void) info;
    nucx_probe *probe = user_data;
    probe->recv_req = NULL;
    probe->in_flight--;
    probe->arrived = status == UCS_OK;
    ucp_request_free(request);
}

static void probe_send_callback(void *request, ucs_status_t status, void *user_data) {
    (void) status;
    nucx_probe *probe = user_data;
    probe->in_flight--;
    ucp_request_free(request);
}

/* A failed endpoint shows as a probe that never arrives; nothing else to do. */
static void probe_ep_error(void *arg, ucp_ep_h ep, ucs_status_t status) {
    (void) arg; (void) ep; (void) status;
}

/* Force-closes the endpoint; true when it is closed (and its pending sends called back). */
static int close_probe_endpoint(nucx_probe *probe) {
    ucp_request_param_t param = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE};
    void *request = ucp_ep_close_nbx(probe->ep, &param);
    probe->ep = NULL;
    if (request == NULL || UCS_PTR_IS_ERR(request)) {
        return 1;
    }
    uint64_t deadline = nucx_now_nanos() + NUCX_PROBE_CLOSE_NANOS;
    while (ucp_request_check_status(request) == UCS_INPROGRESS && nucx_now_nanos() < deadline) {
        ucp_worker_progress(probe->worker);
    }
    if (ucp_request_check_status(request) == UCS_INPROGRESS) {
        return 0;
    }
    ucp_request_free(request);
    return 1;
}

/*
 * The single release path of a probe: its receive is cancelled (UCX calls back at once), its
 * endpoint force-closed, its worker destroyed. A probe whose requests did not all call back is
 * left allocated: a late callback writes into it, and UCX 1.13 aborts when a worker is destroyed
 * with requests in flight.
 */
void nucx_probe_free(nucx_worker *w) {
    nucx_probe *probe = w->probe;
    if (probe == NULL) {
        return;
    }
    w->probe = NULL;
    if (probe->recv_req != NULL) {
        ucp_request_cancel(w->worker, probe->recv_req);
    }
    if (close_probe_endpoint(probe) && probe->in_flight == 0) {
        ucp_worker_destroy(probe->worker);
        free(probe);
    }
}

static ucs_status_t probe_create(nucx_worker *w, nucx_probe **out) {
    nucx_probe *probe = calloc(1, sizeof(*probe));
    if (probe == NULL) {
        return UCS_ERR_NO_MEMORY;
    }
    ucp_worker_params_t worker_params = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = UCS_THREAD_MODE_SERIALIZED,
    };
    ucs_status_t status = ucp_worker_create(nucx_context(), &worker_params, &probe->worker);
    if (status != UCS_OK) {
        free(probe);
        return status;
    }
    ucp_address_t *address;
    size_t length;
    status = ucp_worker_get_address(w->worker, &address, &length);
    if (status == UCS_OK) {
        /* The same error handling mode as peers' endpoints, so that UCX picks the same transport. */
        ucp_ep_params_t ep_params = {
            .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE
                          | UCP_EP_PARAM_FIELD_ERR_HANDLER,
            .address = address,
            .err_mode = UCP_ERR_HANDLING_MODE_PEER,
            .err_handler = {.cb = probe_ep_error, .arg = probe},
        };
        status = ucp_ep_create(probe->worker, &ep_params, &probe->ep);
        ucp_worker_release_address(w->worker, address);
    }
    if (status != UCS_OK) {
        ucp_worker_destroy(probe->worker);
        free(probe);
        return status;
    }
    *out = probe;
    return UCS_OK;
}

/* Posts the receive on the loop's worker, then sends from the probe worker. */
static ucs_status_t probe_send(nucx_worker *w, nucx_probe *probe) {
    ucp_request_param_t recv_param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.recv = probe_recv_callback,
        .user_data = probe,
    };
    probe->recv_req = NUCX_REQ_POSTING;
    probe->in_flight++;
    void *recv = ucp_tag_recv_nbx(w->worker, &probe->recv_buf, sizeof(probe->recv_buf), NUCX_PROBE_TAG,
                                  NUCX_PROBE_TAG_MASK, &recv_param);
    if (recv == NULL || UCS_PTR_IS_ERR(recv)) {
        probe->recv_req = NULL;
        probe->in_flight--;
        probe->arrived = recv == NULL;
        return UCS_PTR_STATUS(recv);
    }
    if (probe->recv_req == NUCX_REQ_POSTING) {
        probe->recv_req = recv;
    }
    ucp_request_param_t send_param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.send = probe_send_callback,
        .user_data = probe,
    };
    probe->in_flight++;
    void *send = ucp_tag_send_nbx(probe->ep, &probe->send_buf, sizeof(probe->send_buf), NUCX_PROBE_TAG,
                                  &send_param);
    if (send == NULL || UCS_PTR_IS_ERR(send)) {
        probe->in_flight--;
        return UCS_PTR_STATUS(send);
    }
    return UCS_OK;
}

/*
 * Starts a probe: the loop's progress delivers it, java_worker_probe_arrived tells, and
 * java_worker_probe_free ends it (or replacing the loop's worker does).
 */
static void java_worker_probe_start(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    if (w->probe != NULL) {
        nucx_throw_io(env, "shared-memory probe", "a probe is already in flight");
        return;
    }
    ucs_status_t status = probe_create(w, &w->probe);
    if (status == UCS_OK) {
        status = probe_send(w, w->probe);
    }
    if (status != UCS_OK) {
        nucx_probe_free(w);
        nucx_throw_ucs(env, "shared-memory probe", status);
    }
}

static void java_worker_probe_free(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) env; (void) cls;
    nucx_probe_free((nucx_worker *) (intptr_t) worker_ptr);
}

/* Makes the probe worker progress (its send may wait for wire-up); true once the probe arrived. */
static jboolean java_worker_probe_arrived(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) env; (void) cls;
    nucx_probe *probe = ((nucx_worker *) (intptr_t) worker_ptr)->probe;
    if (probe == NULL) {
        return JNI_FALSE;
    }
    ucp_worker_progress(probe->worker);
    return probe->arrived ? JNI_TRUE : JNI_FALSE;
}

static const JNINativeMethod methods[] = {
    {"workerProbeStart", "(J)V", (void *) java_worker_probe_start},
    {"workerProbeArrived", "(J)Z", (void *) java_worker_probe_arrived},
    {"workerProbeFree", "(J)V", (void *) java_worker_probe_free},
};

int nucx_register_probe(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
