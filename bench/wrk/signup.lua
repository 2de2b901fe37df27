-- Anonymous sign-up: every request creates a new account.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

common.post_json("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key",
  '{"returnSecureToken":true}')

done = common.done
