-- Not a scenario: bench/memory's load. Signs up exactly BENCH_USER_COUNT distinct email/password
-- users (`u<thread>-<n>@memory.example.com`, each answer with its refresh token), shared among the
-- wrk threads and finished as exact-count.lua says (done files under BENCH_DONE_PREFIX).
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
local common = dofile(here .. "common.lua")
local path = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key"
local headers = { ["Content-Type"] = "application/json" }

dofile(here .. "exact-count.lua")(
  tonumber(common.require_env("BENCH_USER_COUNT")), common.require_env("BENCH_DONE_PREFIX"), "/memory-bench-idle",
  function(id, n)
    return wrk.format("POST", path, headers,
      '{"email":"u' .. id .. '-' .. n .. '@memory.example.com","password":"secret123","returnSecureToken":true}')
  end,
  -- Only a sign-up is answered 200.
  function(body) return true end)
