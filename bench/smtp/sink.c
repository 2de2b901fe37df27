/* The SMTP ceiling: a bare SMTP server that answers every command and drops every message, one
 * thread per connection. bench/run measures the emulator's listener against it in the same run.
 * Usage: sink PORT (0 = any free port); prints "listening on smtp://127.0.0.1:PORT". */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Replies to one read's commands go out in one write, as a pipelining server's do. */
static __thread char pending[8192];
static __thread size_t pending_used;
static void reply(int fd, const char *text) {
    (void)fd;
    size_t length = strlen(text);
    if (pending_used + length <= sizeof pending) memcpy(pending + pending_used, text, length), pending_used += length;
}
static void flush_replies(int fd) {
    if (pending_used) send(fd, pending, pending_used, MSG_NOSIGNAL);
    pending_used = 0;
}

static void *serve(void *argument) {
    int fd = (int)(long)argument;
    char buffer[65536];
    size_t used = 0;
    int in_data = 0;
    reply(fd, "220 sink ready\r\n");
    flush_replies(fd);
    for (;;) {
        ssize_t count = recv(fd, buffer + used, sizeof buffer - used, 0);
        if (count <= 0) break;
        used += (size_t)count;
        char *start = buffer, *end;
        while ((end = memchr(start, '\n', used - (size_t)(start - buffer))) != NULL) {
            size_t length = (size_t)(end - start);
            if (length && start[length - 1] == '\r') length--;
            if (in_data) {
                if (length == 1 && start[0] == '.') { in_data = 0; reply(fd, "250 ok\r\n"); }
            } else if (length >= 4 && strncasecmp(start, "DATA", 4) == 0) {
                in_data = 1;
                reply(fd, "354 go ahead\r\n");
            } else if (length >= 4 && strncasecmp(start, "QUIT", 4) == 0) {
                reply(fd, "221 bye\r\n");
                flush_replies(fd);
                close(fd);
                return NULL;
            } else {
                reply(fd, "250 ok\r\n");
            }
            start = end + 1;
        }
        flush_replies(fd);
        used -= (size_t)(start - buffer);
        memmove(buffer, start, used);
        if (used == sizeof buffer) used = 0; /* a line longer than the buffer: drop it */
    }
    close(fd);
    return NULL;
}

int main(int argc, char **argv) {
    int listener = socket(AF_INET, SOCK_STREAM, 0), on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(argc > 1 ? atoi(argv[1]) : 0)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 128) ||
        getsockname(listener, (struct sockaddr *)&address, &length)) {
        perror("sink");
        return 1;
    }
    printf("listening on smtp://127.0.0.1:%d\n", ntohs(address.sin_port));
    fflush(stdout);
    for (;;) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) continue;
        pthread_t thread;
        pthread_create(&thread, NULL, serve, (void *)(long)client);
        pthread_detach(thread);
    }
}
