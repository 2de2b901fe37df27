-- Password sign-in with an account that bench/run created before the run.
-- BENCH_EMAIL and BENCH_PASSWORD default to the account bench/run creates.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local email = os.getenv("BENCH_EMAIL") or "bench@example.com"
local password = os.getenv("BENCH_PASSWORD") or "secret123"

common.post_json("/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key",
  '{"email":' .. common.json_string(email) .. ',"password":' .. common.json_string(password) ..
  ',"returnSecureToken":true}')

done = common.done
