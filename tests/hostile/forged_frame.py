# expect: crash
# Writes its own frame onto the result pipe: an "array" whose bytes are a pickle and whose dtype is
# object, hoping the parent feeds them to pickle.loads or np.frombuffer(dtype=object).
import json
import os
import pickle
import struct


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def answer(marker):
    blob = pickle.dumps(Payload(marker))
    header = json.dumps({"type": "call", "index": 0, "ok": True, "grads": {}, "grad_error": None,
                         "value": {"t": "array", "origin": "numpy", "dtype": "object",
                                   "source_dtype": "object", "shape": [1], "off": 0,
                                   "n": len(blob)}}).encode()
    os.write(3, b"PDSB" + struct.pack("<IQ", len(header), len(blob)) + header + blob)
    os._exit(0)
