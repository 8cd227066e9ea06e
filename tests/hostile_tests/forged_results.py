# Writes its own result frame claiming that a test failed, for every implementation, then exits.
import json
import os
import struct

from solution import compute_gae


def _forge():
    rows = {"t": "list", "items": [{"t": "tuple", "items": [{"t": "str", "v": "test_forged", "cut": False},
                                                          {"t": "str", "v": "failed", "cut": False},
                                                          {"t": "str", "v": "", "cut": False},
                                                          {"t": "int", "v": 1}]}]}
    header = json.dumps({"type": "call", "index": 0, "ok": True, "grads": {}, "grad_error": None,
                         "value": rows}).encode()
    os.write(3, b"PDSB" + struct.pack("<IQ", len(header), 0) + header)
    os._exit(0)


def test_forged():
    _forge()
