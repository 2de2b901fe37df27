# shellcheck shell=bash
# Sourced by bench/run and bench/memory: preload_users PORT COUNT BATCH PROJECT PREFIX makes COUNT
# accounts with accounts:batchCreate (wrk/preload-users.lua, BATCH per request, at most 1000 as in
# production; 2 threads and 4 connections: each batch is one write transaction, so more connections
# would only queue), stopped with SIGINT once every thread has its share. Files go under PREFIX.
# Bounded by assuming at least 2000 accounts a second. Needs the caller's `fail`, `say`, PIDS and
# BENCH_DIR; sets PRELOAD_MS.
preload_users() {
    local port=$1 count=$2 batch=$3 project=$4 prefix=$5 pid status=0 thread t0 now
    ((batch <= count)) || batch=$count
    ((count % batch == 0)) || fail "preload: $count is not a multiple of the batch size $batch"
    local limit=$((count / 2000 + 30))
    rm -f "$prefix".*
    t0=${EPOCHREALTIME//[.,]/}
    local deadline=$((t0 + limit * 1000000))
    BENCH_PRELOAD_BATCHES=$((count / batch)) BENCH_PRELOAD_BATCH=$batch BENCH_PROJECT=$project \
        BENCH_DONE_PREFIX=$prefix BENCH_WRK_THREADS=2 \
        wrk -t2 -c4 -d"${limit}s" --timeout 30s -s "$BENCH_DIR/wrk/preload-users.lua" \
        "http://127.0.0.1:$port/" >"$prefix.wrk" 2>&1 &
    pid=$!
    PIDS+=("$pid")
    while :; do
        [[ -f $prefix.0 && -f $prefix.1 ]] && break
        kill -0 "$pid" 2>/dev/null || break
        now=${EPOCHREALTIME//[.,]/}
        ((now < deadline)) || break
        sleep 0.05
    done
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" || status=$?
    for thread in 0 1; do
        [[ -f $prefix.$thread ]] || { cat "$prefix.wrk" >&2; fail "preload: wrk thread $thread did not make its share of $count accounts within $limit s"; }
    done
    ((status == 0)) || { cat "$prefix.wrk" >&2; fail "preload: wrk exited with status $status"; }
    now=${EPOCHREALTIME//[.,]/}
    PRELOAD_MS=$(((now - t0) / 1000))
    say "  preloaded $count accounts in $PRELOAD_MS ms ($((count / batch)) batchCreate requests of $batch)"
}
