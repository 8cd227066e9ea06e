"""How a check's findings read: the sentence of a failed check, the counterexample shown and why that one,
what a non-finite result says about its cause, a signature that does not fit, and an answer's error.

Messages are filled from the smallest counterexample: `{where}` in the drill's words (`DrillSpec.where`),
`{expected}` and `{got}` formatted, `{detail}` from a property or relation check, and every setting of the
drill as the example sets it (its defaults where it does not).
"""
from __future__ import annotations

import numpy as np

from checker.evaluation import Failure
from checker.report import Counterexample, RunError, fmt
from checker.specs import Check, DrillSpec, Expected
from checker.specs.base import CheckKind


def message(spec: DrillSpec, check: Check, fail: Failure) -> str:
    """The sentence a failed check shows for its failure `fail`."""
    nonfinite = check.id == "output-nonfinite"  # an output check, but one that names the value and the place
    if check.kind is CheckKind.OUTPUT and not nonfinite:
        return fail.detail
    if check.kind in (CheckKind.PROPERTY, CheckKind.CONTRACT, CheckKind.RELATION):
        return check.message.format(detail=fail.detail)
    mm = fail.mismatch
    where = spec.where(mm) if mm else ""
    values = {**spec.hyper_defaults, **fail.example.hyper,
              "at": f" at {where}" if where else "", "where": where, "detail": fail.detail,
              "expected": fmt(mm.expected) if mm else "", "got": fmt(mm.got) if mm else "",
              "field": field_name(mm.field) if mm else "", "label": shown_label(fail.example.label)}
    if nonfinite:
        return (f"On {values['label']} your {values['field']}{values['at']} is {values['got']} where the "
                f"reference gives {values['expected']}: a value overflowed, or was divided by zero, where the "
                "reference's computation stays finite.")
    try:
        return check.message.format(**values)
    except (KeyError, IndexError):
        return check.message


def shown_label(label: str) -> str:
    """An example's label as a sentence reads it: "a random case", "the worked example", not "edge: ..."."""
    return "a random case" if label == "random" else label.removeprefix("edge: ")


def field_name(field: str) -> str:
    if field.startswith("grad:"):
        return f"gradient w.r.t. {field[5:]}"
    if field.startswith("nograd:"):
        return f"gradient reaching {field[7:]}"
    return field


def counterexample(spec: DrillSpec, framework: str, check: Check, fail: Failure, reference: Expected) -> Counterexample:
    """Inputs, the reference's outputs (`reference`, on the failing example) and the answer's outputs on
    the failing example (whole arrays); for a gradient check, the gradient in question."""
    ex = fail.example
    inputs = {**ex.arrays, **ex.hyper}
    exp = reference if ex.invalid is None else Expected({})
    mm = fail.mismatch
    if mm is not None and mm.field.startswith(("grad:", "nograd:")):
        name = mm.field.split(":", 1)[1]
        label = field_name(mm.field)
        want = exp.grads.get(name)
        got_grad = (fail.got or {}).get(f"grad:{name}")
        expected = {label: want if want is not None else "no gradient"}
        got = {label: got_grad if got_grad is not None else (mm.got if isinstance(mm.got, str) else "no gradient")}
    else:
        fields = [f for f in (check.fields or spec.output_fields) if f in exp.outputs] or list(exp.outputs)
        shown = spec.as_shown(exp.outputs, ex)
        expected = {f: shown[f] for f in fields}
        got = {}
        if fail.got is not None:
            shown = spec.as_shown(fail.got, ex)
            got = {f: shown.get(f) for f in fields}
        if fail.detail and fail.got is None:
            got = {"result": fail.detail}
    return Counterexample(check.id, ex.label, inputs, expected, got, spec.where(mm) if mm else "")


def shown_failure(failed: list[Check], failures: dict, failing: dict) -> tuple[Check, Failure]:
    """The check and the example the counterexample shows: a failure of the first named mistake itself
    (the smallest example on which the answer and the mistake both fail a check; a named property before
    the catch-all comparison on random inputs, a value check before a relation, both before the input
    contract), so the case shown is the one the diagnosis explains; else the first failed check's
    smallest failure."""
    for by_check in failing.values():
        mine = [(c, f) for c in failed for f in failures[c.id] if f.index in by_check.get(c.id, ())]
        if mine:
            return min(mine, key=lambda cf: (cf[0].kind is CheckKind.CONTRACT, cf[0].kind is CheckKind.RELATION,
                                             cf[0].id == "matches-reference", cf[1].example.size()))
        break
    head = failed[0]
    return head, min(failures[head.id], key=lambda f: f.example.size())


def shrinkable(check: Check) -> bool:
    """A failure of `check` can be made smaller by re-running on simpler inputs: one example's result (a
    value compared with the reference, a non-finite output, an input the contract rules out), not a
    property or a relation (spoken of over the outputs as given), nor a wrong type or shape (as plain
    as it gets already)."""
    return check.kind in (CheckKind.VALUE, CheckKind.CONTRACT) or check.id == "output-nonfinite"


def nonfinite_explanation(spec: DrillSpec, fail: Failure, padding_poisoned) -> tuple[str, str | None]:
    """What the non-finite result itself says about its cause, from the input it came from: NaN or inf in
    the padding (`padding_poisoned(spec, example)`), inputs whose exp overflows or underflows, or neither
    (then no guess). Returns (explanation, card)."""
    ex = fail.example
    head = "Your output holds NaN or inf on an input where the correct answer is finite."
    if spec.roles.get("mask") and padding_poisoned(spec, ex):
        return (f"{head} On this input padded slots hold NaN, inf or huge values: they reached the result, "
                "which a mask applied by multiplying does not stop (NaN * 0 and inf * 0 are NaN). Keep the padded "
                "entries out of every operation: select with where or boolean indexing.",
                "tok-padding-select-not-multiply")
    finite = [a[np.isfinite(a)] for a in ex.arrays.values() if a.dtype.kind == "f"]
    if any(x.size and np.abs(x).max() >= 300 for x in finite):
        card = "ppo-ratio-log-space" if spec.roles.get("old_logp") else None
        return (f"{head} Some inputs here are large in magnitude (hundreds), where exp overflows to inf or "
                "underflows to 0 and a division or a log of the result is no longer finite. Combine the "
                "terms before exponentiating, or use a log-space form."), card
    return (f"{head} Find the operation that first gives NaN or inf on the input shown (a division by zero, a "
            "log of 0)."), None


def signature_problem(spec: DrillSpec, signature) -> str | None:
    """What is wrong with the answer's function's parameters for the way the checker calls it, or None."""
    if signature is None:
        return None
    names = [p["name"] for p in signature]
    want = [*spec.positional, *spec.hyper_defaults]
    shown = ", ".join(spec.positional) + "".join(f", {k}={v!r}" for k, v in spec.hyper_defaults.items())
    theirs = ", ".join(names)
    kinds = {p["name"]: p for p in signature}
    accepts_kwargs = any(p["kind"] == "VAR_KEYWORD" for p in signature)
    positional_ok = [p for p in signature if p["kind"] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    star_args = any(p["kind"] == "VAR_POSITIONAL" for p in signature)
    if len(positional_ok) < len(spec.positional) and not star_args:
        return f"{spec.function} must take ({shown}); yours takes ({theirs})"
    # The checker calls the function with the settings by name and follows the inputs by their names
    # (a gradient is asked for by the prompt's name): say so plainly, since `(r, v, d)` reads to a person
    # as the same function.
    names_note = (f". The checker passes {', '.join(spec.hyper_defaults) or 'the settings'} by name and "
                  f"follows the inputs by the prompt's names, so name every parameter as the prompt does")
    for k in spec.hyper_defaults:
        if k not in kinds and not accepts_kwargs:
            return (f"{spec.function} must take ({shown}); yours has no parameter {k!r} (it takes "
                    f"({theirs})){names_note}")
    extra = [p["name"] for p in signature if p["name"] not in want and not p["has_default"]
             and p["kind"] not in ("VAR_POSITIONAL", "VAR_KEYWORD")]
    if extra and len(positional_ok) > len(spec.positional):
        renamed = [n for n in spec.positional if n not in kinds]
        if renamed:
            return (f"{spec.function} must take ({shown}); yours takes ({theirs}), with no parameter "
                    f"{' or '.join(repr(n) for n in renamed)}{names_note}")
        return f"{spec.function} must take ({shown}); yours also requires {', '.join(extra)}"
    return None


def run_error(err, examples) -> RunError:
    """The sandbox's error of a run (`checker.sandbox.model.RunError`-like: kind, message, line, detail,
    call_index) as the report's `RunError`, naming the example it was running on."""
    if err.exc_type == "NotImplementedError":
        return RunError(err.kind, "the function is not written yet (it still raises NotImplementedError): replace "
                                  "that line with your answer", err.line)
    msg = err.message
    if err.call_index is not None and err.call_index < len(examples):
        ex = examples[err.call_index]
        msg = f"{msg} (while running on {ex.label.removeprefix('edge: ')}: " + ", ".join(
            f"{k}={fmt(v)}" for k, v in list(ex.arrays.items()) + list(ex.hyper.items())) + ")"
    return RunError(err.kind, msg, err.line, err.detail or "")
