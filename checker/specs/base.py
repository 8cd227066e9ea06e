"""The vocabulary shared by the drill specs: an `Example` input, the `Expected` reference result, a named
`Check`, and the `DrillSpec` base class with the generic parts (calls, output structure, comparison)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Mapping

import numpy as np
import torch

from checker.report import fmt
from checker.sandbox.model import Call, Opaque, ReturnedArray

RTOL = 1e-5
ATOL = 1e-6


@dataclass(frozen=True)
class Example:
    """One input to the candidate's function. `arrays` are float64 (or bool) numpy arrays passed
    positionally, in the spec's order; `hyper` are keyword hyperparameters (absent = the default is
    exercised). `label` says where it came from ("edge: T = 1", "random"). `invalid` names what is
    wrong with an input that must be rejected with ValueError (contract probes)."""
    arrays: dict[str, np.ndarray]
    hyper: dict[str, Any] = field(default_factory=dict)
    label: str = "random"
    invalid: str | None = None
    relation: tuple[str, str] | None = None  # (relation name, role): examples a metamorphic check compares

    def size(self) -> tuple:
        """An ordering for shrinking: fewer elements, then smaller magnitudes, then rounder numbers
        (computed once per example: the smallest failing example is picked per check and per mistake)."""
        cached = self.__dict__.get("_size")
        if cached is None:
            cached = self.__dict__["_size"] = self._size()
        return cached

    def _size(self) -> tuple:
        n = sum(a.size for a in self.arrays.values())
        mag = sum(float(np.abs(a.astype(np.float64)[np.isfinite(a.astype(np.float64))]).sum())
                  for a in self.arrays.values())
        finite = [a[np.isfinite(a)] for a in self.arrays.values() if a.dtype != bool]  # padding may hold NaN, inf
        frac = sum(float(np.abs(f - np.round(f)).sum()) for f in finite)
        return (n, frac > 0, mag, frac)


def example_key(ex: Example) -> tuple:
    """A content key for an example (label, settings, each input's dtype, shape and bytes): what caches
    of results per example are keyed by, so they hold across checks and seeds."""
    arrays = tuple((k, v.dtype.str, v.shape, v.tobytes()) for k, v in sorted(ex.arrays.items()))
    return (ex.label, tuple(sorted(ex.hyper.items())), arrays)


@dataclass
class Expected:
    """The reference result of one example: named output arrays and, for PyTorch, the gradient each
    input should receive (None = must receive none). `error` is set for invalid inputs."""
    outputs: dict[str, np.ndarray]
    grads: dict[str, np.ndarray | None] = field(default_factory=dict)
    error: str | None = None


class CheckKind(Enum):
    """What a check looks at, which decides how the engine judges it, shrinks its counterexample and
    words its failure."""
    OUTPUT = "output"        # the structure of what the answer returns (type, shape, finite values)
    CONTRACT = "contract"    # inputs the drill must refuse: raising ValueError is the right result
    VALUE = "value"          # `fields` of the answer's result compared with the reference's
    PROPERTY = "property"    # `custom(example, got)`: a property of the answer's own outputs
    RELATION = "relation"    # `compare`: the answer against itself across the roles of one relation


@dataclass(frozen=True)
class Check:
    """A named property of a right answer.

    `applies(example)` picks the examples it speaks about. What it looks at is its `kind`: a VALUE check
    compares `fields` ("loss", "advantages", "grad:new_logp", "nograd:old_logp") with the reference; a
    PROPERTY check's `custom(example, got)` tests the answer's own outputs and returns a detail string
    when the property is violated; a RELATION check's `compare` looks at the answer's outputs across the
    roles of the examples of `relation` (metamorphic); a CONTRACT check (`contract_check`) wants
    ValueError on invalid inputs. The kind follows from what is given (`relation` and `compare`, or
    `custom`, else `fields`); CONTRACT and OUTPUT are stated. `message` is the sentence shown on failure;
    `{where}`, `{expected}`, `{got}`, `{detail}` and the example's settings are filled from the smallest
    counterexample.
    """
    id: str
    title: str
    message: str
    applies: Callable[[Example], bool] = lambda ex: ex.invalid is None
    fields: tuple[str, ...] = ()
    custom: Callable[[Example, dict], str | None] | None = None
    frameworks: tuple[str, ...] = ("numpy", "torch")
    relation: str | None = None  # a metamorphic check: compares the answer with itself across the roles
    # ({role: got}, the spec's `where`) -> detail when the relation fails
    compare: Callable[..., str | None] | None = None
    kind: CheckKind | None = None

    def __post_init__(self) -> None:
        kind = self.kind
        if kind is None:
            kind = CheckKind.RELATION if self.relation is not None else (
                CheckKind.PROPERTY if self.custom is not None else CheckKind.VALUE)
            object.__setattr__(self, "kind", kind)
        if kind is CheckKind.RELATION and (self.relation is None or self.compare is None):
            raise ValueError(f"check {self.id!r}: a relation check needs `relation` and `compare`")
        if kind is CheckKind.PROPERTY and self.custom is None:
            raise ValueError(f"check {self.id!r}: a property check needs `custom`")
        if kind is CheckKind.VALUE and not self.fields:
            raise ValueError(f"check {self.id!r}: a value check needs the `fields` it compares")


def contract_check(title: str) -> Check:
    """The check that inputs the drill's contract rules out (an `Example` with `invalid` set) raise
    ValueError; `title` says which inputs."""
    return Check("input-contract", title, "The contract says {detail}.", applies=lambda ex: ex.invalid is not None,
                 kind=CheckKind.CONTRACT)


@dataclass(frozen=True)
class Axis:
    """An independent part of an answer's behaviour: one field (an output, a derived quantity,
    "grad:<input>", "nograd:<input>") over the examples `applies` picks. The diagnosis names, per axis,
    the mistake that explains it. Axes of one `group` are not independent (a loss and its gradient): a
    mistake is named only if the answer differs from the reference on every axis of a group where the
    mistake does."""
    id: str
    title: str
    field: str
    applies: Callable[[Example], bool] = lambda ex: True
    group: str = ""


@dataclass
class Mismatch:
    field: str
    index: tuple
    expected: Any
    got: Any


_LARGEST = np.finfo(np.float64).max


def first_where(mask) -> tuple[int, ...]:
    """The index of the first True entry of `mask` (row-major order) as plain ints: where a check says the
    answer first differs."""
    return tuple(int(i) for i in np.argwhere(mask)[0])


def close(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise closeness with NaN == NaN and inf == inf of the same sign (np.isclose's rule,
    |a - b| <= atol + rtol |b|, written out: np.isclose costs ~50 us a call on the small arrays here)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim == 0 and b.ndim == 0:  # one number each (a loss, a statistic): the same rule, in Python
        x, y = float(a), float(b)
        d = abs(x - y)
        return np.asarray((d <= ATOL + RTOL * abs(y) and math.isfinite(d)) or x == y or (x != x and y != y))
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(a - b)
        # |a - b| within the tolerance and finite (an inf b must not make every a "close"): the
        # tolerance capped at the largest float says both at once
        ok = d <= np.fmin(ATOL + RTOL * np.abs(b), _LARGEST)
        if ok.all():  # the common case: nothing left to decide
            return ok
        ok |= a == b
        ok |= np.isnan(a) & np.isnan(b)
    return ok


def first_difference(expected: dict | None, got: dict | None, fields=None) -> Mismatch | None:
    """The first field where `got` differs from `expected` (the tolerance is relative to the expected
    value), as a `Mismatch` at the first differing element, or None when they agree. `fields`: the fields
    to compare, in order (default: every field of either, sorted, but the "nograd:" supports, which a
    gradient's own field already compares). A field absent (None) on one side only differs; a whole side
    absent (the call raised) differs as the field "result"."""
    if expected is None or got is None:
        return None if expected is None and got is None else Mismatch("result", (), expected, got)
    if fields is None:
        fields = [k for k in sorted(set(expected) | set(got)) if not k.startswith("nograd:")]
    for name in fields:
        e, g = expected.get(name), got.get(name)
        if e is None and g is None:
            continue
        if e is None or g is None:
            return Mismatch(name, (), e, g)
        e, g = np.asarray(e, dtype=np.float64), np.asarray(g, dtype=np.float64)
        if e.shape != g.shape:
            return Mismatch(name, (), e, g)
        ok = close(g, e)
        if not ok.all():
            idx = first_where(~ok) if e.ndim else ()
            return Mismatch(name, idx, e[idx] if e.ndim else e, g[idx] if g.ndim else g)
    return None


def _shown(value) -> Any:
    """A side of a relation's difference as a sentence shows it: no gradient where there is none."""
    return "no gradient" if value is None else value


def _at(d: Mismatch, where: Callable | None) -> str:
    """ " at <where>" for a relation's detail: in the drill's words (its spec's `where`) when given."""
    if not d.index:
        return ""
    if where is not None:
        words = where(d)
        if words:
            return f" at {words}"
    return f" at {', '.join(str(i) for i in d.index)}"


def relation_compare(first: str, second: str, first_words: str, second_words: str) -> Callable[[dict], str | None]:
    """A relation check's comparison: the answer's outputs (and gradients) in role `first` must equal those
    in role `second`; the detail says where they differ, in words (`where`: the spec's, so a place reads
    as in the drill's other messages)."""
    def compare(got: dict, where: Callable | None = None) -> str | None:
        if first not in got or second not in got:
            return None
        d = first_difference(got[second], got[first])
        if d is None:
            return None
        name = f"gradient w.r.t. {d.field[5:]}" if d.field.startswith("grad:") else d.field
        return f"your {name}{_at(d, where)} is {fmt(_shown(d.got))} {first_words} but {fmt(_shown(d.expected))} {second_words}"
    return compare


def relation_same_on(base: str, fields: tuple[str, ...], base_words: str,
                     words: Callable[[str], str] = lambda role: f"with {role} padding") -> Callable[[dict], str | None]:
    """A relation check's comparison over several roles: every other role must give what role `base` gives on
    `fields` (e.g. the outputs on valid tokens, whatever the padding holds); the detail names the first role
    and element that differ."""
    def compare(got: dict, where: Callable | None = None) -> str | None:
        if got.get(base) is None:
            return None
        for role in sorted(r for r in got if r != base):
            a, b = got[role], got[base]
            if a is None:
                continue
            d = first_difference({f: b.get(f) for f in fields}, {f: a.get(f) for f in fields})
            if d is None:
                continue
            return (f"your {d.field}{_at(d, where)} is {fmt(_shown(d.got))} {words(role)} but {fmt(_shown(d.expected))} "
                    f"{base_words}")
        return None
    return compare


def describe(value: Any) -> str:
    """How a returned value reads in a message: "a tuple of 2", "a float", "a numpy array of shape (3,)"."""
    if isinstance(value, ReturnedArray):
        kind = "tensor" if value.is_torch else ("numpy scalar" if value.origin == "numpy-scalar" else "numpy array")
        return f"a {kind} of shape {tuple(value.shape)} ({value.source_dtype})"
    if isinstance(value, Opaque):
        return f"a {value.type_name}"
    if value is None:
        return "None"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)}"
    return f"a {type(value).__name__}"


class OutputProblem(Exception):
    """The candidate's output does not have the structure the drill asks for. `mistake` is the
    catalogued output mistake id (output-type / output-shape / output-nonfinite)."""

    def __init__(self, mistake: str, message: str):
        super().__init__(message)
        self.mistake = mistake
        self.message = message


class DrillSpec:
    """Base class: subclasses fill in the inputs, the reference and the checks of one core drill."""

    drill_id: str = ""
    function: str = ""
    positional: tuple[str, ...] = ()        # array inputs, passed positionally in this order
    hyper_defaults: dict[str, Any] = {}     # keyword hyperparameters and their defaults
    trainable: tuple[str, ...] = ()         # PyTorch inputs that must receive the reference gradient
    constants: tuple[str, ...] = ()         # PyTorch inputs that must receive no gradient
    grad_of: str = ""                       # output path to back-propagate from (PyTorch)
    output_fields: tuple[str, ...] = ()
    # What the drill's inputs and outputs are, in the shared misconceptions' terms (drills/_common/
    # misconceptions.yaml, checker/misconceptions.py): role -> input names (a tuple) or the drill's words
    # for a convention. A drill inherits every shared misconception whose roles it declares.
    roles: dict[str, Any] = {}
    # A drill whose answer is made of other drills' answers (the total loss of the policy and the value
    # losses): term -> the drill whose function computes it. The diagnosis then also knows each term's
    # catalogued mistakes inside an otherwise right whole (`assemble`).
    terms: dict[str, str] = {}

    # ---- inputs -------------------------------------------------------------------------------
    def strategy(self, framework: str):
        raise NotImplementedError

    def edge_cases(self, framework: str) -> list[Example]:
        raise NotImplementedError

    def shrink(self, ex: Example) -> list[Example]:
        """Simpler variants of `ex`, simplest first: by default rounder numbers (`rounded`); specs add
        smaller shapes before them (`single_rows`, `cut_tokens`)."""
        return rounded(ex)

    def assemble(self, parts: Mapping[str, Callable]) -> Callable:
        """For a drill with `terms`: its function made of one function per term (each called as its own
        drill's function is), with this drill's defaults."""
        raise NotImplementedError

    # ---- running ------------------------------------------------------------------------------
    def to_call(self, ex: Example, framework: str) -> Call:
        args: list = []
        for name in self.positional:
            a = ex.arrays.get(name)
            if a is None:
                args.append(None)
            elif framework == "torch":
                args.append(torch.from_numpy(np.array(a, copy=True)))
            else:
                args.append(np.array(a, copy=True))
        if framework == "torch" and ex.invalid is None:
            wrt = tuple(n for n in (*self.trainable, *self.constants) if ex.arrays.get(n) is not None)
            return Call(tuple(args), dict(ex.hyper), grad_of=self.grad_of if wrt else None, grad_wrt=wrt)
        return Call(tuple(args), dict(ex.hyper), expect_error=ex.invalid is not None)

    def reference(self, ex: Example, framework: str) -> Expected:
        raise NotImplementedError

    def extract(self, value: Any, ex: Example, framework: str) -> dict[str, np.ndarray]:
        """The named outputs of a candidate's return value; raises OutputProblem if its structure is wrong."""
        raise NotImplementedError

    def checks(self) -> list[Check]:
        raise NotImplementedError

    # ---- diagnosis ------------------------------------------------------------------------------
    def axes(self, framework: str) -> list[Axis]:
        """The independent parts of the behaviour. Default: each output, and in PyTorch the gradient of
        each trainable input and the (absent) gradient of each constant input; outputs and gradients form
        one group. Specs split further (by reduction mode, by example class) or add derived fields."""
        out = [Axis(f, f, f, group="main") for f in self.output_fields]
        if framework == "torch":
            out += [Axis(f"grad:{n}", f"the gradient w.r.t. {n}", f"grad:{n}", group="main") for n in self.trainable]
            out += [Axis(f"nograd:{n}", f"the gradient reaching {n}", f"nograd:{n}", group=f"nograd:{n}")
                    for n in self.constants]
        return out

    def derive(self, ex: Example, outputs: dict) -> dict:
        """Derived fields added to the outputs of the reference, the answer and every catalogued variant
        (default: none), e.g. GAE's returns - advantages."""
        return {}

    def kinks(self, ex: Example) -> dict[str, np.ndarray]:
        """Per trainable input, the elements where the loss has a kink or a tie (every subgradient is
        right there): gradients are not compared on them, values still are. Default: none."""
        return {}

    def defaults_pair(self, arrays: dict, label: str) -> list[Example]:
        """Two examples for the metamorphic defaults check: the same arrays called without the
        hyper-parameters and with the documented defaults passed explicitly."""
        return [Example(dict(arrays), {}, f"edge: {label} (defaults left out)", relation=("defaults", "implicit")),
                Example(dict(arrays), dict(self.hyper_defaults), f"edge: {label} (defaults passed)",
                        relation=("defaults", "explicit"))]

    def underflow(self, ex: Example, framework: str) -> dict:
        """For the role `probability_underflow`: per field, where a log taken of a probability in
        probability space (log(sigmoid(x)), log(softmax(x)), with or without an epsilon) loses the value
        (True: the whole field; a bool array: those elements). Default: nowhere."""
        return {}

    def as_shown(self, outputs: dict, ex: Example) -> dict:
        """The outputs (the reference's, or the answer's as extracted) as a counterexample shows them to
        a person; by default as they are compared. A spec whose compared fields are padded or masked
        shows what each side actually returned."""
        return outputs

    def where(self, mismatch: Mismatch) -> str:
        """Where a mismatch sits, in the drill's words ("t = 2", "row 1, t = 0")."""
        if not mismatch.index:
            return ""
        if len(mismatch.index) == 1:
            return f"t = {mismatch.index[0]}"
        return f"row {mismatch.index[0]}, t = {mismatch.index[1]}"

    # ---- shared helpers for subclasses --------------------------------------------------------
    @staticmethod
    def real(value: ReturnedArray, what: str) -> None:
        """Refuse an array whose dtype is not a real number where a float is asked.

        Converting a complex result to float64 silently drops its imaginary part (NumPy only warns),
        so `np.complex128(loss + 1e6j)` would compare equal to the right loss; a bool has no
        magnitude to compare. Either is an output-type failure, whatever its values. Integers are
        real numbers and compare exactly, so they are left to the value checks.
        """
        kind = value.dtype.kind
        if kind == "c" or "complex" in value.source_dtype:
            raise OutputProblem("output-type", f"{what} must be real floats; yours is {describe(value)}, "
                                               "a complex dtype (the checker does not drop the imaginary part)")
        if kind == "b" or "bool" in value.source_dtype:
            raise OutputProblem("output-type", f"{what} must be floats; yours is {describe(value)}, "
                                               "booleans")
        if kind not in "fiu":
            raise OutputProblem("output-type", f"{what} must be floats; yours is {describe(value)}")

    @staticmethod
    def number(value: Any, what: str) -> np.ndarray:
        """A real number reported as a metric: a float, an int, or a 0-d real array or tensor."""
        if isinstance(value, bool) or not isinstance(value, (int, float, ReturnedArray)) or (
                isinstance(value, ReturnedArray) and value.shape != ()):
            raise OutputProblem("output-type", f"{what} must be a number (a float, an int or a 0-d "
                                               f"tensor); yours is {describe(value)}")
        if isinstance(value, ReturnedArray):
            DrillSpec.real(value, what)
            return np.asarray(value.plain(), dtype=np.float64)
        return np.asarray(float(value))

    @staticmethod
    def scalar(value: Any, framework: str, what: str = "the loss") -> np.ndarray:
        """A scalar loss: NumPy may return a float or a 0-d array; PyTorch must return a 0-d tensor."""
        if framework == "torch":
            if not isinstance(value, ReturnedArray) or not value.is_torch:
                raise OutputProblem("output-type", f"{what} must be a 0-d torch tensor (so gradients can flow); "
                                                   f"yours returned {describe(value)}")
            if value.shape != ():
                raise OutputProblem("output-shape", f"{what} must be a scalar (0-d) tensor; yours has shape "
                                                    f"{tuple(value.shape)} — reduce it with .mean()")
            DrillSpec.real(value, what)
            return np.asarray(value.plain(), dtype=np.float64)
        if isinstance(value, bool) or not isinstance(value, (int, float, ReturnedArray)):
            raise OutputProblem("output-type", f"{what} must be a float or a 0-d NumPy array; yours returned "
                                               f"{describe(value)}")
        if isinstance(value, ReturnedArray):
            if value.is_torch:
                raise OutputProblem("output-type", f"this is the NumPy drill: return a float or a NumPy scalar, "
                                                   f"not {describe(value)}")
            if value.shape != ():
                raise OutputProblem("output-shape", f"{what} must be a scalar; yours has shape "
                                                    f"{tuple(value.shape)} — reduce it with .mean()")
            DrillSpec.real(value, what)
            return np.asarray(value.plain(), dtype=np.float64)
        return np.asarray(float(value))

    @staticmethod
    def array(value: Any, framework: str, shape: tuple, what: str, like: str = "") -> np.ndarray:
        """An array output of `shape`, of real numbers: a torch tensor in the PyTorch drill, a NumPy array
        in the NumPy one. `like` says in words where the shape comes from ("one value per response"), for
        the message a wrong shape gets."""
        want = "torch tensor" if framework == "torch" else "NumPy array"
        if not isinstance(value, ReturnedArray) or (value.is_torch != (framework == "torch")):
            raise OutputProblem("output-type", f"{what} must be a {want}; yours is {describe(value)}")
        if tuple(value.shape) != tuple(shape):
            because = f" ({like})" if like else ""
            raise OutputProblem("output-shape", f"{what} must have shape {tuple(shape)}{because}; yours has shape "
                                                f"{tuple(value.shape)}")
        DrillSpec.real(value, what)
        return np.asarray(value.plain(), dtype=np.float64)


# ---- shrinking: the simpler variants of a failing example a spec offers ----------------------------

def single_rows(ex: Example, rows: int, step: int = 1) -> list[Example]:
    """`ex` cut to each of its `rows` rows (the first dimension of every input), `step` rows at a time where
    rows come in groups; none when it has no more than one such piece."""
    if rows <= step:
        return []
    return [Example({k: v[b:b + step] for k, v in ex.arrays.items()}, dict(ex.hyper), ex.label)
            for b in range(0, rows, step)]


def cut_tokens(ex: Example, keep: int, length: int) -> Example:
    """`ex` with its token axis (the second dimension of every [rows, `length`] input) cut to the first
    `keep` positions; other inputs as they are."""
    return Example({k: (v[:, :keep] if v.ndim == 2 and v.shape[1] == length else v) for k, v in ex.arrays.items()},
                   dict(ex.hyper), ex.label)


def rounded(ex: Example) -> list[Example]:
    """`ex` with its float inputs rounded to one decimal, then to whole numbers (masks and integer inputs
    as they are): a counterexample in round numbers reads at a glance."""
    return [Example({k: (np.round(v, digits) + 0.0 if v.dtype.kind == "f" else v) for k, v in ex.arrays.items()},
                    dict(ex.hyper), ex.label, ex.invalid) for digits in (1, 0)]
