"""schemathesis hooks for test_openapi_fuzz.py (loaded through SCHEMATHESIS_HOOKS)."""

import schemathesis


@schemathesis.check
def no_server_error_except_not_implemented(ctx, response, case):
    """Any 5xx fails, except a 501 NOT_IMPLEMENTED: the emulator's answer, like the official one's,
    for what it does not build (stub routes, `pendingIdToken`, IdP sign-in through createAuthUri)."""
    status = response.status_code
    if status < 500:
        return None
    if status == 501 and '"NOT_IMPLEMENTED"' in response.text:
        return None
    raise AssertionError(f"{status} from {case.method} {case.path}: {response.text[:2000]}")


# The most any route waits (the outbox API's `waitSeconds`; the console's live update takes 25).
LONGEST_ACCEPTED_WAIT_SECONDS = 60


def bounded_wait(value):
    """A `waitSeconds` the server would honour with a wait over 1 s, as 1; anything else as is."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return value
    return 1 if 1 < seconds <= LONGEST_ACCEPTED_WAIT_SECONDS else value


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    """Negative cases break the test's 1 s cap on `waitSeconds` too (2, 20, …); one the server
    accepts would hold the request that long (a long-poll that finds nothing, or that was handed
    the current key), past the run's request timeout. Those are sent as 1; values the server
    refuses (over 60, below 0, not a number) go as generated."""
    if case.query and "waitSeconds" in case.query:
        value = case.query["waitSeconds"]
        case.query["waitSeconds"] = [bounded_wait(item) for item in value] if isinstance(value, list) else bounded_wait(value)
