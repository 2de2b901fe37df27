-- Shared by the scenario scripts (loaded with dofile from the same folder).
-- Sets a POST with a JSON body for every request and, when the run ends, prints one
-- machine-readable line that bench/run parses:
--   BENCH requests=N duration_s=S rps=R p50_ms=A p90_ms=B p99_ms=C max_ms=D non2xx3xx=E socket_errors=F
-- wrk counts a "non-2xx or 3xx" response for every status above 399 (errors.status).

local common = {}

function common.post_json(path, body)
  wrk.method = "POST"
  wrk.path = path
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

-- Reads a required setting from the environment (wrk passes its own environment through).
function common.require_env(name)
  local value = os.getenv(name)
  if value == nil or value == "" then
    io.stderr:write("wrk script: environment variable " .. name .. " is not set\n")
    os.exit(2)
  end
  return value
end

-- JSON string escaping, enough for e-mail addresses, passwords and JWTs.
function common.json_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' elseif c == '\\' then return '\\\\' end
    return string.format("\\u%04x", c:byte())
  end) .. '"'
end

-- For scripts that split a count among wrk's threads: numbers the threads 0, 1, … (each sees its
-- number as the global `id`) and answers `share(count)`, this thread's part of `count`, the first
-- count % threads threads taking one more.
function common.split_among_threads()
  local thread_count = tonumber(os.getenv("BENCH_WRK_THREADS") or "2")
  local next_id = 0
  function setup(thread)
    thread:set("id", next_id)
    next_id = next_id + 1
  end
  return function(count)
    return math.floor(count / thread_count) + ((id < count % thread_count) and 1 or 0)
  end
end

function common.done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_s=%.3f rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f non2xx3xx=%d socket_errors=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end

return common
