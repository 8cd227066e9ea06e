# expect: ok
# Returns an object whose unpickling would run code in the parent (creating the marker file).
import os


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def answer(marker):
    return (Payload(marker), {"loss": Payload(marker)})
