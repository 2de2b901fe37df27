/*
 * sqlite-signup.c: what SQLite alone costs for one anonymous sign-up's transaction, with none of
 * the emulator around it: the floor under bench/run's `signup` scenario for the writer lock.
 *
 * The same statements the emulator runs inside its writer lock (BEGIN IMMEDIATE, the users INSERT
 * with every column bound, the refresh_tokens INSERT, COMMIT), prepared once, on the emulator's
 * own schema in a memdb database with the emulator's pragmas, N times on one thread. Prints the
 * CPU time per transaction. See bench/README.md ("The SQLite floor").
 *
 *   gcc -O2 sqlite-signup.c -lsqlite3 -o sqlite-signup
 *   ./sqlite-signup SCHEMA.sql [N]      (N default 200000)
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static sqlite3 *db;

static void check(int code, const char *what) {
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = malloc(size + 1);
    if (fread(text, 1, size, file) != (size_t)size) { perror(path); exit(1); }
    text[size] = 0;
    fclose(file);
    return text;
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement;
    check(sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
    return statement;
}

static void run(sqlite3_stmt *statement, const char *what) {
    check(sqlite3_step(statement), what);
    sqlite3_reset(statement);
}

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s SCHEMA.sql [N]\n", argv[0]); return 2; }
    int count = argc > 2 ? atoi(argv[2]) : 200000;
    check(sqlite3_open_v2("file:/sqlite-signup-floor?vfs=memdb", &db,
              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL), "open");
    check(sqlite3_exec(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = OFF; PRAGMA cache_size = -512;", NULL, NULL, NULL), "pragmas");
    check(sqlite3_exec(db, read_file(argv[1]), NULL, NULL, NULL), "schema");
    sqlite3_stmt *begin = prepare("BEGIN IMMEDIATE"), *commit = prepare("COMMIT");
    sqlite3_stmt *user = prepare(
        "INSERT INTO users (project_id, tenant_id, local_id, email, email_verified, display_name, photo_url,"
        " phone_number, password_hash, salt, password_updated_at, valid_since, created_at, last_login_at,"
        " last_refresh_at, disabled, custom_attributes, custom_auth, email_link_signin, initial_email, mfa_info,"
        " passkey_info, password_hash_config, screen_name, fake_password)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,"
        " ?21, ?22, ?23, ?24, ?25)");
    sqlite3_stmt *token = prepare(
        "INSERT INTO refresh_tokens (token_sha256, project_id, tenant_id, local_id, sign_in_provider,"
        " extra_claims, second_factor, issued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned seed = 1;
    double start = cpu_seconds();
    for (int i = 0; i < count; i++) {
        char local_id[28];
        unsigned char digest[16];
        for (int k = 0; k < 28; k++) local_id[k] = alphabet[rand_r(&seed) % 62];
        for (int k = 0; k < 16; k++) digest[k] = (unsigned char)rand_r(&seed);
        sqlite3_int64 now = 1796317841896LL + i;
        run(begin, "BEGIN");
        sqlite3_bind_text(user, 1, "demo-project", -1, SQLITE_STATIC);
        sqlite3_bind_text(user, 2, "", -1, SQLITE_STATIC);
        sqlite3_bind_text(user, 3, local_id, 28, SQLITE_TRANSIENT);
        for (int column = 4; column <= 25; column++) sqlite3_bind_null(user, column);
        sqlite3_bind_int64(user, 13, now);
        sqlite3_bind_int64(user, 14, now);
        sqlite3_bind_int64(user, 15, now);
        sqlite3_bind_int(user, 16, 0);
        sqlite3_bind_int(user, 18, 0);
        sqlite3_bind_int(user, 19, 0);
        run(user, "users INSERT");
        sqlite3_bind_blob(token, 1, digest, 16, SQLITE_TRANSIENT);
        sqlite3_bind_text(token, 2, "demo-project", -1, SQLITE_STATIC);
        sqlite3_bind_text(token, 3, "", -1, SQLITE_STATIC);
        sqlite3_bind_text(token, 4, local_id, 28, SQLITE_TRANSIENT);
        sqlite3_bind_text(token, 5, "anonymous", -1, SQLITE_STATIC);
        sqlite3_bind_null(token, 6);
        sqlite3_bind_null(token, 7);
        sqlite3_bind_int64(token, 8, now);
        run(token, "refresh_tokens INSERT");
        run(commit, "COMMIT");
    }
    printf("%d sign-up transactions: %.2f us of CPU each\n", count, (cpu_seconds() - start) / count * 1e6);
    return 0;
}
