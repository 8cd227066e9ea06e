# expect: output
# Floods the result pipe with well-formed warning frames through a 1 MiB pipe, as fast as it can and
# for ever: a reader that drains until the pipe is empty never looks at its clock again.
import fcntl
import json
import os
import struct

F_SETPIPE_SZ = 1031


def answer(x):
    try:
        fcntl.fcntl(3, F_SETPIPE_SZ, 1 << 20)
    except OSError:
        pass
    body = json.dumps({"type": "warning", "text": "w" * 100}).encode()
    frame = struct.pack("<4sIQ", b"PDSB", len(body), 0) + body
    burst = frame * 2000
    while True:
        os.write(3, burst)
