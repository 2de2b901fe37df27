/* SMTP load: CONNECTIONS threads, each on one connection, send messages of BODY bytes back to back
 * for SECONDS (MAIL, RCPT and DATA pipelined, then the text, then wait for the 250), and report
 * messages per second and the 99th percentile time from MAIL to the 250.
 * Usage: load PORT CONNECTIONS SECONDS BODY_BYTES
 * Prints "messages N seconds S rate R p99_ms P"; exits 1 on any refused message or I/O error. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port, seconds;
static char *message;
static size_t message_length;
static double deadline;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double *latencies;
static size_t latency_count, latency_capacity;
static long total;
static int failed;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Reads one reply line (of a multi-line reply, its last line) and returns its code, or -1. */
static int read_reply(int fd, char *buffer, size_t *used) {
    for (;;) {
        char *end = memchr(buffer, '\n', *used);
        while (end) {
            int code = atoi(buffer);
            int last = (end - buffer) > 3 && buffer[3] != '-';
            size_t consumed = (size_t)(end - buffer) + 1;
            *used -= consumed;
            memmove(buffer, buffer + consumed, *used);
            if (last) return code;
            end = memchr(buffer, '\n', *used);
        }
        ssize_t count = recv(fd, buffer + *used, 4096 - *used, 0);
        if (count <= 0) return -1;
        *used += (size_t)count;
    }
}

static int send_all(int fd, const char *data, size_t length) {
    while (length) {
        ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);
        if (sent <= 0) return -1;
        data += sent;
        length -= (size_t)sent;
    }
    return 0;
}

static void *run(void *unused) {
    (void)unused;
    char buffer[4096];
    size_t used = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    const char *envelope = "MAIL FROM:<bench@shop.example>\r\nRCPT TO:<customer@example.com>\r\nDATA\r\n";
    if (connect(fd, (struct sockaddr *)&address, sizeof address) || read_reply(fd, buffer, &used) != 220 ||
        send_all(fd, "EHLO bench\r\n", 12) || read_reply(fd, buffer, &used) != 250) goto broken;
    while (now() < deadline) {
        double started = now();
        if (send_all(fd, envelope, strlen(envelope)) || read_reply(fd, buffer, &used) != 250 ||
            read_reply(fd, buffer, &used) != 250 || read_reply(fd, buffer, &used) != 354 ||
            send_all(fd, message, message_length) || read_reply(fd, buffer, &used) != 250) goto broken;
        double took = now() - started;
        pthread_mutex_lock(&lock);
        total++;
        if (latency_count == latency_capacity) {
            latency_capacity = latency_capacity ? latency_capacity * 2 : 4096;
            latencies = realloc(latencies, latency_capacity * sizeof *latencies);
        }
        latencies[latency_count++] = took;
        pthread_mutex_unlock(&lock);
    }
    send_all(fd, "QUIT\r\n", 6);
    close(fd);
    return NULL;
broken:
    pthread_mutex_lock(&lock);
    failed = 1;
    pthread_mutex_unlock(&lock);
    close(fd);
    return NULL;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: load PORT CONNECTIONS SECONDS BODY_BYTES\n"); return 2; }
    port = atoi(argv[1]);
    int connections = atoi(argv[2]);
    seconds = atoi(argv[3]);
    size_t body = (size_t)atol(argv[4]);
    /* A receipt-like message: headers, then BODY bytes of 76-character lines. */
    const char *headers = "From: Shop <bench@shop.example>\r\nTo: customer@example.com\r\nSubject: Your receipt\r\n"
                          "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n";
    message = malloc(strlen(headers) + body + body / 76 * 2 + 16);
    strcpy(message, headers);
    size_t at = strlen(headers);
    for (size_t written = 0; written < body; written++) {
        message[at++] = 'a' + (char)(written % 26);
        if (written % 76 == 75) { message[at++] = '\r'; message[at++] = '\n'; }
    }
    memcpy(message + at, "\r\n.\r\n", 5);
    message_length = at + 5;
    double started = now();
    deadline = started + seconds;
    pthread_t threads[connections];
    for (int i = 0; i < connections; i++) pthread_create(&threads[i], NULL, run, NULL);
    for (int i = 0; i < connections; i++) pthread_join(threads[i], NULL);
    double elapsed = now() - started;
    qsort(latencies, latency_count, sizeof *latencies, compare);
    double p99 = latency_count ? latencies[(size_t)(latency_count * 0.99)] * 1000 : 0;
    printf("messages %ld seconds %.2f rate %.0f p99_ms %.2f\n", total, elapsed, total / elapsed, p99);
    if (failed) { fprintf(stderr, "load: a message was refused or a connection broke\n"); return 1; }
    return 0;
}
