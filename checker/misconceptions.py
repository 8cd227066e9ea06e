"""The shared misconceptions (`drills/_common/misconceptions.yaml`) in each drill that inherits them.

A misconception belongs to a concept: "gradient into the old log-probs", "a mask multiplied into NaN",
"the log of a probability that underflows". A drill inherits it when its checker spec declares the roles
it needs (`DrillSpec.roles`: which inputs are the old log-probs, the mask, whether padding may hold NaN,
which statistics the drill asks for). For each inheriting drill this module gives:

- **planted variants**: the drill's own model answer with the misconception planted, by a rewrite rule
  that edits the lines where the concept shows (a `.detach()` dropped, a `torch.where(mask, x, 0)` made a
  product, a `>` made `>=`, a std's correction switched), keeping every other line so the edit merges with
  the drill's own mistakes; or by a thin function around it that transforms its inputs or outputs (the
  ratio's log-probs exchanged, the returns taken at lam = 1). One variant per place the rule applies, and
  one with all of them; each is a module a candidate could have written.
- **recognisers**: the property whose failure shows the misconception in any form. A recogniser predicts
  the reference's behaviour everywhere except where the property leaves the answer free (the gradient
  reaching an input that must get none; non-finite results on inputs whose padding holds NaN or inf and
  nowhere else; results that differ only where a probability underflows), so `log(softmax + 1e-12)`, which
  floors at -27.6 where the planted form gives -inf, is named as well.

Both carry the drill's own name for the misconception where its catalogue specialises it (a mistake folder
with the same id, or `concept: <id>`), else the shared id. `checker.catalogue` judges them like any other
catalogued variant. Everything here is our own code applied to our own model answers.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

import numpy as np

from checker.specs import spec_for
from drills import get_drill, shared_misconceptions

# ---- what a drill inherits ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Planted:
    """One planted variant: the id the report names, the shared misconception it plants, a label, and the
    planted source (the drill's model answer edited, or wrapped by a function that transforms its inputs
    or outputs)."""
    mistake_id: str
    misconception: str
    label: str
    source: str


@dataclass(frozen=True)
class Recogniser:
    """A misconception named by the property it breaks: `free(run, i, field)` says where on example i the
    answer may differ from the reference (True: the whole field; an array: those elements; None: nowhere)."""
    mistake_id: str
    misconception: str
    label: str
    free: Callable


def inheriting(drill_id: str) -> list:
    """The shared misconceptions a core drill inherits: those whose needed roles its spec declares."""
    spec = spec_for(drill_id)
    roles = spec.roles

    def fits(m) -> bool:
        if not all(r in roles for r in m.needs):
            return False
        if m.recognise and m.recognise[0] == "gradient-reaches":  # a gradient only where it is checked
            return set(names(roles, m.recognise[1])) <= set(spec.constants)
        return True
    return [m for m in shared_misconceptions().values() if fits(m)]


def local_name(drill, misconception_id: str) -> str:
    """The id under which `drill` names a shared misconception: its own specialisation if it has one."""
    for m in drill.mistakes:
        if m.id == misconception_id or misconception_id in m.concepts:
            return m.id
    return misconception_id


def planted(drill_id: str, framework: str) -> tuple[Planted, ...]:
    """Every planted variant of every inherited misconception in the drill's model answer (deduplicated;
    a plant that changes nothing is left out)."""
    drill = get_drill(drill_id)
    if framework not in drill.frameworks:
        return ()
    spec = spec_for(drill_id)
    solution = drill.solution(framework)
    out: list[Planted] = []
    seen = {solution}
    for m in inheriting(drill_id):
        if framework not in m.frameworks or m.plant is None:
            continue
        rule, arg = m.plant
        name = local_name(drill, m.id)
        for k, item in enumerate(PLANTS[rule](solution, spec, framework, arg)):
            if item in seen:
                continue
            seen.add(item)
            out.append(Planted(name, m.id, f"{name}:{framework}:planted:{rule}:{k}", item))
    return tuple(out)


def recognisers(drill_id: str, framework: str) -> tuple[Recogniser, ...]:
    drill = get_drill(drill_id)
    if framework not in drill.frameworks:
        return ()
    spec = spec_for(drill_id)
    out = []
    for m in inheriting(drill_id):
        if framework not in m.frameworks or m.recognise is None:
            continue
        rule, arg = m.recognise
        free = RECOGNISE[rule](spec, framework, arg)
        if free is not None:
            name = local_name(drill, m.id)
            out.append(Recogniser(name, m.id, f"{name}:{framework}:recognised:{rule}", free))
    return tuple(out)


def explanation(text: str, roles: dict) -> str:
    """A shared explanation in the drill's own words: `{role}` becomes the drill's input names."""
    class Words(dict):
        def __missing__(self, key):
            return "{" + key + "}"

    words = Words({k: (" and ".join(v) if isinstance(v, tuple) else str(v)) for k, v in roles.items()})
    try:
        return text.format_map(words)
    except (ValueError, IndexError):
        return text


def card(misconception_id: str, default: str, roles: dict) -> str:
    """The review card for a shared misconception in this drill (a spec may name its own: `card:<id>`)."""
    return roles.get(f"card:{misconception_id}", default)


def names(roles: dict, role: str) -> tuple[str, ...]:
    v = roles.get(role, ())
    return v if isinstance(v, tuple) else (v,)


# ---- rewriting the model answer ------------------------------------------------------------------------

class _Source:
    """A module's text with its syntax tree; edits are made by column on single lines, so every other line
    stays as written (the catalogue merges two mistakes' edits line by line)."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.tree = ast.parse(text)
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                child._parent = node  # type: ignore[attr-defined]  # our own annotation

    def seg(self, node) -> str:
        return ast.get_source_segment(self.text, node) or ""

    def one_line(self, node) -> bool:
        return getattr(node, "lineno", None) is not None and node.lineno == node.end_lineno

    def apply(self, edits: list[tuple]) -> str:
        """edits: (node, new text); nodes on one line each, not overlapping."""
        by_line: dict[int, list] = {}
        for node, new in edits:
            by_line.setdefault(node.lineno, []).append((node.col_offset, node.end_col_offset, new))
        lines = list(self.lines)
        for ln, items in by_line.items():
            raw = lines[ln - 1].encode("utf-8")
            for c0, c1, new in sorted(items, reverse=True):
                raw = raw[:c0] + new.encode("utf-8") + raw[c1:]
            lines[ln - 1] = raw.decode("utf-8")
        return "".join(lines)


def _variants(src: _Source, edits: list[tuple]) -> list[str]:
    """One planted source per edit, and one with every edit that does not overlap another."""
    edits = [e for e in edits if src.one_line(e[0])]
    out = [src.apply([e]) for e in edits]
    if len(edits) > 1:
        kept: list[tuple] = []
        for e in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset, -e[0].end_col_offset)):
            if any(k[0].lineno == e[0].lineno and k[0].col_offset <= e[0].col_offset < k[0].end_col_offset
                   for k in kept):
                continue
            kept.append(e)
        out.append(src.apply(kept))
    return out


def _attr(node) -> str | None:
    return node.func.attr if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else None


def _base_name(node) -> str | None:
    """The variable an expression reads: x for x, x[m], x.detach(), x[m].detach()."""
    while True:
        if isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            node = node.func.value
        else:
            break
    return node.id if isinstance(node, ast.Name) else None


def _in_raising_if(node) -> bool:
    """Part of an input check: the test of an `if` whose body raises."""
    while hasattr(node, "_parent"):
        parent = node._parent  # noqa: SLF001
        if isinstance(parent, ast.If) and node is parent.test:
            return any(isinstance(s, ast.Raise) for s in parent.body)
        node = parent
    return False


def _plant_detach_removed(solution, spec, framework, role):
    """Gradient into a constant input: its `.detach()` dropped (each place, and all of them)."""
    targets = set(names(spec.roles, role))
    src = _Source(solution)
    edits = []
    for node in ast.walk(src.tree):
        if _attr(node) == "detach" and not node.args and _base_name(node.func.value) in targets:
            edits.append((node, src.seg(node.func.value)))
    return _variants(src, edits) if edits else []


def _wrapped(solution: str, spec, body: str) -> str:
    """The model answer renamed `_planted_<function>` and, after it, the drill's function with its own
    signature: `body` (lines indented by 4) transforms the inputs or outputs around a call `CALL` of it."""
    drill = get_drill(spec.drill_id)
    head = drill.signature.split(" -> ")[0]
    fn = ast.parse(f"def {head}: pass").body[0]
    params = [a.arg for a in fn.args.args]  # type: ignore[attr-defined]
    call = f"_planted_{drill.function}(" + ", ".join(params) + ")"
    body = body.replace("CALL_AT(", f"_planted_{drill.function}(").replace("PARAMS", ", ".join(params))
    renamed = solution.replace(f"def {drill.function}(", f"def _planted_{drill.function}(", 1)
    return (renamed.rstrip("\n") + "\n\n\n" + f"def {head}:\n"
            + "".join(f"    {line}\n" for line in body.replace("CALL", call).splitlines()))


def _plant_ratio_inverted(solution, spec, framework, _arg):
    """exp(old - new) for the ratio: the answer called with 2 old - new as its new log-probs (the gradient
    w.r.t. the new log-probs flips sign with it, as in an answer that writes old - new)."""
    new, old = names(spec.roles, "new_logp")[0], names(spec.roles, "old_logp")[0]
    base = f"{old}.detach()" if framework == "torch" else old
    body = (f"try:\n    {new} = 2 * {base} - {new}\nexcept (ValueError, RuntimeError, TypeError, AttributeError):\n"
            "    pass  # inputs the model answer rejects: let it say so\nreturn CALL")
    return [_wrapped(solution, spec, body)]


def _plant_ratio_division(solution, spec, framework, _arg):
    """exp(new) / exp(old) where the answer takes exp(new - old)."""
    new, old = set(names(spec.roles, "new_logp")), set(names(spec.roles, "old_logp"))
    src = _Source(solution)
    edits = []
    for node in ast.walk(src.tree):
        if _attr(node) == "exp" and len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) \
                and isinstance(node.args[0].op, ast.Sub):
            left, right = node.args[0].left, node.args[0].right
            if _base_name(left) in new and _base_name(right) in old:
                f = src.seg(node.func)
                edits.append((node, f"{f}({src.seg(left)}) / {f}({src.seg(right)})"))
    return _variants(src, edits) if edits else []


def _is_zero(src: _Source, node) -> bool:
    if isinstance(node, ast.Constant) and node.value == 0:
        return True
    if isinstance(node, ast.Name) and node.id == "zero":
        return True
    return _attr(node) in ("zeros", "zeros_like") and "zeros" in src.seg(node)


def _mask_names(src: _Source, spec) -> set[str]:
    """The mask input and the names bound to it (valid = response_mask, valid = response_mask[:, 1:])."""
    found = set(names(spec.roles, "mask"))
    changed = True
    while changed:
        changed = False
        for node in ast.walk(src.tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id not in found and _base_name(node.value) in found \
                    and isinstance(node.value, (ast.Name, ast.Subscript)):
                found.add(node.targets[0].id)
                changed = True
    return found


def _plant_mask_multiplied(solution, spec, framework, _arg):
    """where(mask, x, 0) written x * mask (and masked_fill(~mask, 0) likewise): NaN * 0 is NaN."""
    src = _Source(solution)
    masks = _mask_names(src, spec)
    edits = []
    for node in ast.walk(src.tree):
        if _attr(node) == "where" and len(node.args) == 3 and _base_name(node.args[0]) in masks \
                and isinstance(node.args[0], (ast.Name, ast.Subscript)) and _is_zero(src, node.args[2]):
            # parenthesised whole: the where may be the receiver of a method (`.sum()`)
            edits.append((node, f"(({src.seg(node.args[1])}) * {src.seg(node.args[0])})"))
        elif _attr(node) == "masked_fill" and len(node.args) == 2 and isinstance(node.args[0], ast.UnaryOp) \
                and isinstance(node.args[0].op, ast.Invert) and _base_name(node.args[0].operand) in masks \
                and _is_zero(src, node.args[1]):
            edits.append((node, f"(({src.seg(node.func.value)}) * {src.seg(node.args[0].operand)})"))
    return _variants(src, edits) if edits else []


def _plant_log_of_probability(solution, spec, framework, _arg):
    """The log taken of a probability: logsigmoid, log_softmax or a log-sum-exp written as log(p)."""
    src = _Source(solution)
    edits = []
    for node in ast.walk(src.tree):
        a = _attr(node)
        if a == "logsigmoid" and len(node.args) == 1:
            edits.append((node, f"torch.log(torch.sigmoid({src.seg(node.args[0])}))"))
        elif a == "log_softmax" and _base_name(node.func.value) in ("torch", "F"):
            args = ", ".join(src.seg(x) for x in [*node.args, *node.keywords])
            edits.append((node, f"torch.log(torch.softmax({args}))"))
        elif a == "log_softmax":
            args = ", ".join(src.seg(x) for x in [*node.args, *node.keywords])
            edits.append((node, f"{src.seg(node.func.value)}.softmax({args}).log()"))
        elif a == "logaddexp" and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value == 0:
            edits.append((node, f"-np.log(1.0 / (1.0 + np.exp({src.seg(node.args[1])})))"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _attr(node.right) == "log" \
                and len(node.right.args) == 1 and "exp(" + src.seg(node.left) + ")" in src.seg(node.right):
            edits.append((node, f"np.log(np.exp({src.seg(node.left)}) / {src.seg(node.right.args[0])})"))
    return _variants(src, edits) if edits else []


def _toggled_std(src: _Source, node, framework: str) -> list[str]:
    """The other correction of one .std / .var call (and, towards the unbiased one, a form that keeps the
    population value for a single element instead of dividing by zero)."""
    kw = {k.arg: k for k in node.keywords}
    is_np = _base_name(node.func.value) == "np" or framework == "numpy"
    recv = src.seg(node.args[0]) if _base_name(node.func.value) in ("np", "torch") and node.args else \
        src.seg(node.func.value)
    rest = [k for k in node.keywords if k.arg not in ("ddof", "unbiased", "correction")]

    def call(extra: str | None) -> str:
        parts = [src.seg(x) for x in node.args] + [src.seg(k) for k in rest] + ([extra] if extra else [])
        return f"{src.seg(node.func)}({', '.join(parts)})"

    def unbiased_now() -> bool:
        if "ddof" in kw:
            return not (isinstance(kw["ddof"].value, ast.Constant) and kw["ddof"].value.value == 0)
        if "correction" in kw:
            return not (isinstance(kw["correction"].value, ast.Constant) and kw["correction"].value.value == 0)
        if "unbiased" in kw:
            return not (isinstance(kw["unbiased"].value, ast.Constant) and kw["unbiased"].value.value is False)
        return not is_np
    if unbiased_now():
        return [call("ddof=0" if is_np else "unbiased=False")]
    if is_np:
        return [call("ddof=1"), call(f"ddof=1 if ({recv}).size > 1 else 0")]
    return [call("unbiased=True"), call(f"unbiased=({recv}).numel() > 1")]


def _plant_std_correction(solution, spec, framework, _arg):
    """The population and the unbiased std (or var) exchanged, one place at a time and everywhere."""
    src = _Source(solution)
    per_site: list[list[tuple]] = []
    for node in ast.walk(src.tree):
        if _attr(node) in ("std", "var") and not _in_raising_if(node):
            per_site.append([(node, t) for t in _toggled_std(src, node, framework)])
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and _attr(node.left) == "sum" \
                and "** 2" in src.seg(node.left.func.value):
            d = src.seg(node.right)
            per_site.append([(node, f"{src.seg(node.left)} / ({d} - 1)"),
                             (node, f"{src.seg(node.left)} / max({d} - 1, 1)")])
    out = []
    for site in per_site:
        out += [src.apply([e]) for e in site if src.one_line(e[0])]
    if len(per_site) > 1:
        for k in range(max(len(s) for s in per_site)):
            out.append(src.apply([s[min(k, len(s) - 1)] for s in per_site if src.one_line(s[0][0])]))
    return out


def _plant_strict_comparison(solution, spec, framework, _arg):
    """A strict comparison made non-strict (> as >=, < as <=, torch.gt as ge), each place alone and all of
    them. Input checks, counts and shapes are left alone: the misconception is about a threshold."""
    src = _Source(solution)
    edits = []
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Gt, ast.Lt)) \
                and not _in_raising_if(node) and src.one_line(node):
            sides = (node.left, node.comparators[0])
            text = src.seg(node)
            if any(isinstance(s, ast.Constant) and isinstance(s.value, int) for s in sides) or \
                    any(w in text for w in ("shape", "len(", "ndim", "dim()", "numel", "size")):
                continue
            line = src.lines[node.lineno - 1].encode("utf-8")
            gap = line[sides[0].end_col_offset:sides[1].col_offset].decode("utf-8")
            op = ">" if isinstance(node.ops[0], ast.Gt) else "<"
            new = src.seg(sides[0]) + gap.replace(op, op + "=", 1) + src.seg(sides[1])
            edits.append((node, new))
        elif _attr(node) in ("gt", "lt") and len(node.args) >= 1:
            edits.append((node, src.seg(node).replace("." + node.func.attr + "(",
                                                       "." + {"gt": "ge", "lt": "le"}[node.func.attr] + "(", 1)))
    return _variants(src, edits)


def _plant_mc_return(solution, spec, framework, _arg):
    """The returns output replaced by the returns at lam = 1 (the Monte Carlo return), the advantages kept."""
    lam = names(spec.roles, "lam")[0]
    k = int(names(spec.roles, "returns_output")[0])
    body = f"out = list(CALL)\nout[{k}] = CALL_AT(PARAMS)[{k}]\nreturn tuple(out)"

    head = get_drill(spec.drill_id).signature.split(" -> ")[0]
    params = [a.arg for a in ast.parse(f"def {head}: pass").body[0].args.args]
    body = body.replace("PARAMS", ", ".join("1.0" if a == lam else a for a in params))
    return [_wrapped(solution, spec, body)]


def _plant_whiten_mean(solution, spec, framework, _arg):
    """(A - mean) / std written A / std (the centring dropped), or with the mean added back."""
    src = _Source(solution)
    drop, readd = [], []
    for node in ast.walk(src.tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mult)) \
                and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Sub) \
                and "mean" in src.seg(node.left.right) \
                and any(w in src.seg(node.right) for w in ("std", "sqrt", "var")):
            op = "/" if isinstance(node.op, ast.Div) else "*"
            x, m, r = src.seg(node.left.left), src.seg(node.left.right), src.seg(node.right)
            drop.append((node, f"({x} {op} {r})"))
            readd.append((node, f"(({x} - {m}) {op} {r} + {m})"))
    return (_variants(src, drop) + _variants(src, readd)) if drop else []


PLANTS = {
    "detach-removed": _plant_detach_removed,
    "ratio-inverted": _plant_ratio_inverted,
    "ratio-division": _plant_ratio_division,
    "mask-multiplied": _plant_mask_multiplied,
    "log-of-probability": _plant_log_of_probability,
    "std-bessel-correction": _plant_std_correction,
    "strict-comparison": _plant_strict_comparison,
    "mc-return": _plant_mc_return,
    "whiten-mean": _plant_whiten_mean,
}


# ---- recognising by the property that fails ---------------------------------------------------------

def _recognise_gradient(spec, framework, role):
    """Any gradient reaching an input that must receive none (in PyTorch)."""
    fields = {f"nograd:{n}" for n in names(spec.roles, role) if n in spec.constants}
    if framework != "torch" or not fields:
        return None

    def free(run, i, field):
        return True if field in fields else None
    return free


def _valid_and_padded(spec, ex, name, a):
    """The valid and the padded entries of input `name` (None when the spec has no mask for it)."""
    mask_name = names(spec.roles, "mask")[0] if spec.roles.get("mask") else None
    mask = ex.arrays.get(mask_name) if mask_name else None
    if mask is None:
        return a.ravel(), a[:0]
    try:
        valid = spec.valid_input_mask(ex.arrays, name) if hasattr(spec, "valid_input_mask") else mask
    except (KeyError, ValueError, IndexError):
        valid = mask
    valid = np.asarray(valid, dtype=bool)
    while valid.ndim < a.ndim:
        valid = valid[..., None]
    try:
        valid = np.broadcast_to(valid, a.shape)
    except ValueError:
        return None
    return a[valid], a[~valid]


def _largest(x) -> float:
    x = x[np.isfinite(x)]
    return float(np.abs(x).max()) if x.size else 0.0


def padding_poisoned(spec, ex) -> bool:
    """Some padded slot of a float input holds NaN or inf, or a magnitude whose exp overflows where the
    valid entries stay within exp's range."""
    mask_name = names(spec.roles, "mask")[0] if spec.roles.get("mask") else None
    if mask_name is None or ex.arrays.get(mask_name) is None:
        return False
    for name, a in ex.arrays.items():
        if name == mask_name or a.dtype.kind != "f":
            continue
        parts = _valid_and_padded(spec, ex, name, a)
        if parts is None:
            continue
        valid, pad = parts
        if pad.size and ((~np.isfinite(pad)).any() or (_largest(pad) >= 700 > _largest(valid))):
            return True
    return False


def _recognise_nonfinite_from_padding(spec, framework, _arg):
    """NaN or inf in the results exactly where padding that holds NaN or inf was summed in: on examples
    whose padding is poisoned the answer may be non-finite where the reference is finite, and must equal
    the reference everywhere else (and on every other example)."""
    poisoned: dict = {}

    def free(run, i, field):
        key = run.keys[i]
        hit = poisoned.get(key)
        if hit is None:
            _bound(poisoned)
            hit = poisoned[key] = padding_poisoned(spec, run.examples[i])
        return _nonfinite_where_finite(run, i, field) if hit else None
    return free


def _recognise_exp_range(spec, framework, _arg):
    """NaN or inf exactly on inputs whose log-probs lie beyond exp's range (|x| >= 700 on a valid entry),
    where exp(new) / exp(old) is 0 / 0 or inf / inf and the ratio itself is ordinary."""
    inputs = [n for role in ("new_logp", "old_logp") for n in names(spec.roles, role)]
    extreme: dict = {}

    def free(run, i, field):
        key = run.keys[i]
        hit = extreme.get(key)
        if hit is None:
            _bound(extreme)
            ex = run.examples[i]
            hit = False
            for n in inputs:
                a = ex.arrays.get(n)
                parts = None if a is None else _valid_and_padded(spec, ex, n, a)
                if parts is not None and parts[0].size and _largest(parts[0]) >= 700:
                    hit = True
            extreme[key] = hit
        return _nonfinite_where_finite(run, i, field) if hit else None
    return free


def _bound(cache: dict, limit: int = 8192) -> None:
    """Per-example caches of a long-lived checker stay bounded (keys hold the examples' bytes)."""
    if len(cache) > limit:
        cache.clear()


def _nonfinite_where_finite(run, i, field):
    c, r = run.value(run.cand[i], field), run.value(run.ref[i], field)
    if isinstance(c, str) or isinstance(r, str) or c is None or r is None:
        return None
    c, r = np.asarray(c, dtype=np.float64), np.asarray(r, dtype=np.float64)
    if c.shape != r.shape:
        return None
    bad = ~np.isfinite(c) & np.isfinite(r)
    return bad if bad.any() else None


def _recognise_underflow(spec, framework, _arg):
    """Results that differ from the reference only where a probability underflows (spec.underflow)."""
    cache: dict = {}

    def free(run, i, field):
        key = run.keys[i]
        hit = cache.get(key)
        if hit is None:
            _bound(cache)
            hit = cache[key] = spec.underflow(run.examples[i], framework) or {}
        return hit.get(field)
    return free


def _recognise_padded_outputs(spec, framework, _arg):
    """Padded positions of a per-token output not exactly 0, every valid token right."""
    def free(run, i, field):
        return True if field.endswith(" on padding") else None
    return free


RECOGNISE = {
    "padded-outputs": _recognise_padded_outputs,
    "gradient-reaches": _recognise_gradient,
    "nonfinite-from-padding": _recognise_nonfinite_from_padding,
    "probability-underflow": _recognise_underflow,
    "exp-range": _recognise_exp_range,
}
