#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic, which Swift cannot call: this fixes the threading model (one
// internal thread, ITC so it can be told of new connections, and suspend/resume so a long-poll
// holds no thread) and takes the few knobs the server varies as plain arguments. poll(), not
// epoll: MHD's edge-triggered epoll can miss a client's half-close that arrives with the last
// bytes of a truncated body, holding the connection until it times out.
// No listening socket and no thread pool: the server runs one such daemon per thread, accepts
// connections itself, looks at each one's first request head, and hands it with
// MHD_add_connection to a daemon whose thread is not busy in a handler (MHD's own pool would pick
// a worker by the socket's number, busy or not).
// The limits are explicit: a connection's memory pool (which holds the request line, the headers
// and MHD's record of each header and query parameter), the number of open connections, and the
// idle timeout. The URI log callback sees the request line before MHD parses its query; the
// connection notice tells when MHD has closed a connection (the server counts its own).
static inline struct MHD_Daemon *cmhd_start_daemon(
    unsigned int connection_timeout_seconds, size_t connection_memory_bytes, unsigned int connection_limit,
    MHD_AccessHandlerCallback access_handler, MHD_RequestCompletedCallback request_completed,
    void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection),
    MHD_NotifyConnectionCallback connection_notice, void *context) {
    unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_NO_LISTEN_SOCKET;
    return MHD_start_daemon(
        flags, 0, NULL, NULL, access_handler, context,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_NOTIFY_COMPLETED, request_completed, context,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_bytes,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, context,
        MHD_OPTION_NOTIFY_CONNECTION, connection_notice, context,
        MHD_OPTION_END);
}

#endif
