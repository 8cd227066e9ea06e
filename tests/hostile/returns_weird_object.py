# expect: ok
class Loss:
    def __repr__(self):
        return "Loss(0.5)"


def answer(x):
    return Loss()
