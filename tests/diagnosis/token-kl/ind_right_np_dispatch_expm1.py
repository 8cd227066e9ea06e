# expect: right
# framework: numpy
# style: NumPy, dict of estimators, expm1 for k3, np.where masking
import numpy as np

_ESTIMATORS = {
    "k1": lambda d: d,
    "k2": lambda d: 0.5 * d * d,
    "k3": lambda d: np.expm1(-d) + d,
}


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    try:
        f = _ESTIMATORS[estimator]
    except KeyError:
        raise ValueError(f"unknown KL estimator: {estimator}") from None
    mask = np.asarray(response_mask, dtype=bool)
    with np.errstate(all="ignore"):
        d = np.where(mask, log_probs - ref_log_probs, 0.0)
        kl = np.where(mask, f(d), 0.0).astype(log_probs.dtype)
    return kl, float(kl.sum() / mask.sum())
