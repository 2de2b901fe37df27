-- signInWithIdp with Sign in with Apple for a RETURNING user: the same RS256 Apple ID token
-- (and raw nonce) every time. bench/run mints it and signs the user up before the run and passes
-- the request body in BENCH_IDP_BODY.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

common.post_json("/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key",
  common.require_env("BENCH_IDP_BODY"))

done = common.done
