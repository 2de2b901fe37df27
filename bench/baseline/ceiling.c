/*
 * ceiling.c: a bare libmicrohttpd server, the ceiling the emulator is compared against.
 *
 * Same threading setup as the emulator's HTTPServer (Sources/CMicroHTTPD/shim.h):
 * MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC, a thread pool of
 * max(2, online cores), a 60 s connection timeout, listening on 127.0.0.1 only.
 * Like the emulator it builds a fresh response (MHD_RESPMEM_MUST_COPY) per request.
 *
 * It accepts any method and path, reads the whole upload body, and answers 200 with a
 * small fixed JSON body. Nothing else: no parsing, no state, no crypto.
 *
 *   gcc -O2 ceiling.c $(pkg-config --cflags --libs libmicrohttpd) -o ceiling
 *   ./ceiling PORT          (0 = a free port; the bound port is printed on stdout)
 *
 * Stops on SIGINT or SIGTERM.
 */
#include <microhttpd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char BODY[] =
    "{\"kind\":\"identitytoolkit#SignupNewUserResponse\",\"localId\":\"x\",\"idToken\":\"x\","
    "\"refreshToken\":\"x\",\"expiresIn\":\"3600\"}";

/* Non-NULL marker stored in the per-request slot after the first call (headers seen). */
static int request_started;

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    if (*req_cls == NULL) {            /* first call: headers only */
        *req_cls = &request_started;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {      /* a chunk of the body: consume it all */
        *upload_data_size = 0;
        return MHD_YES;
    }
    /* body complete: answer */
    struct MHD_Response *response =
        MHD_create_response_from_buffer(sizeof BODY - 1, (void *)BODY, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    enum MHD_Result ret = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return ret;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    long port = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || port < 0 || port > 65535) {
        fprintf(stderr, "ceiling: bad port '%s'\n", argv[1]);
        return 2;
    }

    /* Block the stop signals before MHD starts its threads (they inherit the mask),
       then wait for them synchronously on the main thread. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned int pool_size = (unsigned int)(cores > 2 ? cores : 2);

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC, 0, NULL, NULL, handle, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, pool_size,
        MHD_OPTION_CONNECTION_TIMEOUT, 60u,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "ceiling: cannot listen on 127.0.0.1:%ld\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("ceiling listening on http://127.0.0.1:%u (thread pool %u)\n",
           info != NULL ? (unsigned)info->port : (unsigned)port, pool_size);
    fflush(stdout);

    int received = 0;
    sigwait(&stop_signals, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
