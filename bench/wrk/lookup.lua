-- Account lookup by ID token. The token comes from BENCH_ID_TOKEN (bench/run sets it from
-- the sign-up it does before the run) or, failing that, from the first script argument:
--   wrk ... -s lookup.lua URL -- <idToken>
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local token = os.getenv("BENCH_ID_TOKEN")

function init(args)
  -- wrk calls init in each thread (each has its own copy of this script) with the
  -- arguments after --, and formats the request from wrk.body only after init returns.
  if (token == nil or token == "") and args[1] then token = args[1] end
  if token == nil or token == "" then
    io.stderr:write("lookup.lua: set BENCH_ID_TOKEN or pass the token after --\n")
    os.exit(2)
  end
  wrk.body = '{"idToken":' .. common.json_string(token) .. '}'
end

common.post_json("/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake-api-key",
  '{"idToken":' .. common.json_string(token or "") .. '}')

done = common.done
