-- signInWithEmailLink with a FRESH sign-in code on every request, for a returning user (bench/run's
-- pre-flight request signs BENCH_EMAIL up with its own code). A code works once, so they are made
-- before the run (email-link-mint.lua); thread i sends the bodies of
-- BENCH_EMAIL_LINK_BODIES-<BENCH_PHASE>.<i>, one line each, in order, then its neighbour's
-- backwards (pregenerated.lua). A code sent twice is spent (400 INVALID_OOB_CODE): the count of
-- such requests is printed as `EMAIL_LINK reused=N`, and bench/run refuses an emulator run with
-- N > 0 (the ceiling, much faster, always comes round).
local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
dofile(here .. "pregenerated.lua")("email-link-signin.lua", "BENCH_EMAIL_LINK_BODIES",
  "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink?key=fake-api-key", "EMAIL_LINK")
