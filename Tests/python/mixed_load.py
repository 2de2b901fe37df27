"""A short mixed load on one emulator binary, for the sanitizer builds (scripts/sanitize thread):
threads signing up, signing in, looking up and configuring at once, beside hostile clients
(oversized, malformed and truncated requests, half-closes). Fails when the emulator dies, when
a request gets a 5xx, or when it does not stop cleanly on SIGTERM.

    python Tests/python/mixed_load.py BINARY SECONDS
"""

import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

API = "/identitytoolkit.googleapis.com/v1"
KEY = "?key=fake-api-key"
STDERR = []


def start(binary):
    process = subprocess.Popen([binary, "--port", "0", "--project", "demo-load", "--log-level", "warn"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    for line in process.stdout:
        if match := re.search(rb"listening on http://([0-9.]+:\d+)", line):
            # Keep both pipes drained, so a chatty emulator never blocks on a full one.
            threading.Thread(target=process.stdout.read, daemon=True).start()
            threading.Thread(target=lambda: STDERR.append(process.stderr.read()), daemon=True).start()
            return process, match.group(1).decode()
        if time.monotonic() > deadline:
            break
    process.kill()
    sys.exit(f"mixed_load: {binary} did not start: {process.stderr.read().decode(errors='replace')[-4000:]}")


def post(host, path, body, headers=None):
    request = urllib.request.Request(f"http://{host}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def raw(host, data, half_close=False):
    address, port = host.rsplit(":", 1)
    with socket.create_connection((address, int(port)), timeout=30) as connection:
        try:
            connection.sendall(data)
            if half_close:
                connection.shutdown(socket.SHUT_WR)
            while connection.recv(65536):
                pass
        except OSError:
            pass


def users(host, worker, stop, failures):
    n = 0
    while not stop.is_set():
        n += 1
        email = f"w{worker}-{n}@example.com"
        status, signed_up = post(host, f"{API}/accounts:signUp{KEY}", {"email": email, "password": "password-1",
                                                                          "returnSecureToken": True})
        statuses = [status]
        if status == 200:
            statuses.append(post(host, f"{API}/accounts:signInWithPassword{KEY}",
                                 {"email": email, "password": "password-1"})[0])
            statuses.append(post(host, f"{API}/accounts:lookup{KEY}", {"idToken": signed_up["idToken"]})[0])
            statuses.append(post(host, f"{API}/accounts:update{KEY}",
                                 {"idToken": signed_up["idToken"], "displayName": f"n{n}"})[0])
        statuses.append(post(host, f"{API}/accounts:sendOobCode{KEY}",
                             {"requestType": "PASSWORD_RESET", "email": email})[0])
        if any(code >= 500 for code in statuses):
            failures.append(f"{email}: {statuses}")


HOSTILE = [
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", False),
    (b"GET /x?" + b"&" * 6000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", False),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: v\r\n" % i for i in range(1000)) + b"\r\n", False),
    (f"POST {API}/accounts:signUp{KEY} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{{}}".encode(), True),
    (f"POST {API}/accounts:signUp{KEY} HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n".encode(), False),
    (f"POST {API}/accounts:signUp{KEY} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".encode(), False),
    (b"\x00\xffnot http at all\r\n\r\n", True),
]


def hostile(host, stop):
    while not stop.is_set():
        for data, half_close in HOSTILE:
            raw(host, data, half_close)


def main():
    binary, seconds = sys.argv[1], float(sys.argv[2])
    process, host = start(binary)
    stop, failures = threading.Event(), []
    threads = [threading.Thread(target=users, args=(host, worker, stop, failures)) for worker in range(6)]
    threads += [threading.Thread(target=hostile, args=(host, stop)) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    alive = process.poll() is None
    if alive:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        sys.exit("mixed_load: the emulator did not stop within 30 s of SIGTERM")
    time.sleep(0.5)
    stderr = b"".join(STDERR).decode(errors="replace")
    if not alive or process.returncode != 0:
        sys.exit(f"mixed_load: the emulator exited with {process.returncode}\n{stderr[-8000:]}")
    if failures:
        sys.exit("mixed_load: 5xx answers:\n" + "\n".join(failures[:20]))
    print(f"mixed_load: {seconds:.0f} s of mixed load, clean stop")


if __name__ == "__main__":
    main()
