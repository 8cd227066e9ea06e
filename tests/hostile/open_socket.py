# expect: ok
# Tries to reach a port on the machine's loopback; returns how far it got.
import socket


def answer(port):
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    except OSError as exc:
        return "socket: " + type(exc).__name__
    try:
        s.settimeout(0.5)
        s.connect(("127.0.0.1", port))
        s.sendall(b"escaped")
        return "connected"
    except OSError as exc:
        return "connect: " + type(exc).__name__
