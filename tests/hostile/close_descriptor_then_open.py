# expect: ok
# Frees a descriptor with os.close(0), then tries what the descriptor limit alone would no longer
# stop: reading a file (the model solution, a 0600 file of the user), listing a directory, importing
# a module the checker did not preload, connecting to a path-based unix socket (a D-Bus bus,
# ssh-agent, docker.sock), and running a program. Returns what happened to each.
import os
import socket


def answer(paths):
    secret, directory, unix_socket = paths
    os.close(0)
    outcomes = {}
    try:
        with open(secret) as f:
            outcomes["read"] = "read: " + f.read(40)
    except OSError as exc:
        outcomes["read"] = type(exc).__name__
    try:
        outcomes["listdir"] = "listed %d" % len(os.listdir(directory))
    except OSError as exc:
        outcomes["listdir"] = type(exc).__name__
    try:
        import wave  # noqa: F401 - in the standard library, not preloaded
        outcomes["import"] = "imported"
    except Exception as exc:  # noqa: BLE001
        outcomes["import"] = type(exc).__name__
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(unix_socket)
        s.sendall(b"escaped")
        outcomes["unix"] = "connected"
    except OSError as exc:
        outcomes["unix"] = type(exc).__name__
    try:
        os.execv("/bin/cat", ["cat", secret])
    except OSError as exc:
        outcomes["exec"] = type(exc).__name__
    return outcomes
