-- Not a scenario: bench/run's preload (BENCH_USERS). Creates BENCH_PRELOAD_BATCHES batches of
-- BENCH_PRELOAD_BATCH accounts with the admin `accounts:batchCreate` (`Authorization: Bearer
-- owner`), shared among the wrk threads and finished as exact-count.lua says (done files under
-- BENCH_DONE_PREFIX): account `p<thread>b<batch>u<i>`, email
-- `p<thread>b<batch>u<i>@preload.example.com`, verified, with a display name.
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
local common = dofile(here .. "common.lua")
local batch_size = tonumber(common.require_env("BENCH_PRELOAD_BATCH"))
local project = common.require_env("BENCH_PROJECT")
local path = "/identitytoolkit.googleapis.com/v1/projects/" .. project .. "/accounts:batchCreate"
local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer owner" }

dofile(here .. "exact-count.lua")(
  tonumber(common.require_env("BENCH_PRELOAD_BATCHES")), common.require_env("BENCH_DONE_PREFIX"),
  "/bench-preload-idle",
  function(id, n)
    local users = {}
    for i = 1, batch_size do
      local name = "p" .. id .. "b" .. n .. "u" .. i
      users[i] = '{"localId":"' .. name .. '","email":"' .. name .. '@preload.example.com","emailVerified":true,'
        .. '"displayName":"Preloaded ' .. name .. '","createdAt":"1700000000000"}'
    end
    return wrk.format("POST", path, headers, '{"users":[' .. table.concat(users, ",") .. ']}')
  end,
  -- A batch counts only when every entry was written (`"error": []`).
  function(body)
    if body:find('"error"%s*:%s*%[%s*%]') then return true end
    io.stderr:write("preload: a batch had failed entries: " .. body:sub(1, 300) .. "\n")
    return false
  end)
