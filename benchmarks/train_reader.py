"""Train the photo reader's models, set their abstain bands, and compare them with the rules reader.

Run:  python benchmarks/train_reader.py [--corpus output/reader-corpus] [--seed 7] [--write]

Needs the development extra ``train`` (scikit-learn) and a corpus made by ``reader_corpus.py``.

1. **Train** one gradient-boosted tree model per mark kind (scikit-learn's ``HistGradientBoostingClassifier``,
   seeded) on the ``train`` split's targets: their feature rows (``generator.reader.model.features``) and labels.
   Targets the reader cannot see (outside the photo, under glare, under a shadow's edge) are decided by what is
   visible, not by the model, and are left out.
2. **Set each kind's band** on the ``validation`` split: every target at or under the band's bottom must be blank
   there, every one at or over its top marked (no decision outside the band wrong); the rest are unsure (``?``).
3. **Write** (``--write``) the trees as flat arrays to ``generator/reader/weights.npz``; the reader runs them
   with NumPy alone.  The same corpus and seed give the same file.
4. **Compare**, on the ``test`` split that neither step saw, the rules reader and the model reader on the same
   measurements, family by family: sheets exact, sheets flagged, sheets with a field wrong without a ``?``.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import track
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

WEIGHTS = ROOT / "generator" / "reader" / "weights.npz"
TREES = {"max_iter": 250, "learning_rate": 0.08, "max_leaf_nodes": 15, "min_samples_leaf": 20, "l2_regularization": 1.0}
"""The models' settings (scikit-learn's names)."""


def load(corpus: Path, split: str) -> list[dict]:
    """The corpus records of one split that were read (a refused photo has no measurement)."""
    out = []
    for path in sorted((corpus / split).glob("*.pkl")):
        with open(path, "rb") as fh:
            record = pickle.load(fh)
        if "measurement" in record:
            out.append(record)
    return out


def _cells(layout_id: str) -> tuple[object, list[str]]:
    from generator.core.shipped import resolve_layout
    from generator.games.allin.grid import cell_name
    from generator.games.allin.layout import load_layout

    lay = load_layout(resolve_layout(layout_id))
    return lay, [cell_name(c) for c in sorted(lay.grid.writable, key=lambda c: (c[1], c[0]))]


LAYOUTS: dict[str, tuple] = {}


def layout(layout_id: str) -> tuple:
    if layout_id not in LAYOUTS:
        LAYOUTS[layout_id] = _cells(layout_id)
    return LAYOUTS[layout_id]


def rows(records: list[dict]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Every visible target's features and label, by kind: ``{kind: (X, y)}``."""
    from generator.reader.model import FEATURES, features

    xs: dict[str, list] = defaultdict(list)
    ys: dict[str, list] = defaultdict(list)
    for r in records:
        m = r["measurement"]
        _, cells = layout(r["layout"])
        for kind, (keys, X) in features(cells, m).items():
            keep = [i for i, k in enumerate(keys) if not m.inks[k].hidden]
            xs[kind].append(X[keep])
            ys[kind].extend(bool(r["labels"].get(keys[i], False)) for i in keep)
    return {
        k: (np.vstack(xs[k]) if xs[k] else np.zeros((0, len(FEATURES[k]))), np.asarray(ys[k], bool)) for k in FEATURES
    }


def fit(X: np.ndarray, y: np.ndarray, seed: int):
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(random_state=seed, early_stopping=False, **TREES).fit(X, y)


def export(model, kind: str, band: tuple[float, float]) -> dict[str, np.ndarray]:
    """A fitted model as the flat arrays :class:`generator.reader.model.Forest` reads."""
    from generator.reader.model import FEATURES

    parts: dict[str, list] = defaultdict(list)
    roots, offset = [], 0
    for (tree,) in model._predictors:  # one tree per iteration (two classes)
        nodes = tree.nodes
        roots.append(offset)
        parts["feature"].append(nodes["feature_idx"])
        parts["threshold"].append(nodes["num_threshold"])
        parts["left"].append(np.where(nodes["is_leaf"], 0, nodes["left"] + offset))
        parts["right"].append(np.where(nodes["is_leaf"], 0, nodes["right"] + offset))
        parts["missing_left"].append(nodes["missing_go_to_left"])
        parts["leaf"].append(nodes["is_leaf"])
        parts["value"].append(nodes["value"])
        offset += len(nodes)
    out = {
        f"{kind}.feature": np.concatenate(parts["feature"]).astype(np.int16),
        f"{kind}.threshold": np.concatenate(parts["threshold"]).astype(np.float64),
        f"{kind}.left": np.concatenate(parts["left"]).astype(np.int32),
        f"{kind}.right": np.concatenate(parts["right"]).astype(np.int32),
        f"{kind}.missing_left": np.concatenate(parts["missing_left"]).astype(bool),
        f"{kind}.leaf": np.concatenate(parts["leaf"]).astype(bool),
        f"{kind}.value": np.concatenate(parts["value"]).astype(np.float64),
        f"{kind}.roots": np.asarray(roots, np.int32),
        f"{kind}.baseline": np.asarray(float(np.ravel(model._baseline_prediction)[0])),
        f"{kind}.band": np.asarray(band, np.float64),
        f"{kind}.names": np.asarray(FEATURES[kind]),
    }
    return out


EPS = 1e-9
"""How far a band's edge stays from the probability it is set by (the shipped trees, run by NumPy, give the same
probabilities as scikit-learn's to about 1e-12)."""


def band(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The narrowest band outside which no validation decision is wrong: its bottom just under the least probable
    marked target, its top just over the most probable blank one (by :data:`EPS`)."""
    low = max(0.0, float(p[y].min()) - EPS) if y.any() else 1.0
    high = min(1.0, float(p[~y].max()) + EPS) if (~y).any() else 0.0
    return min(low, high), max(low, high)


def probabilities(records: list[dict], models: dict) -> list[dict[tuple[str, str, str], float]]:
    """Every target's probability of being marked, per record, by the fitted ``models``."""
    from generator.reader.model import features

    out = []
    for r in records:
        _, cells = layout(r["layout"])
        probs: dict[tuple[str, str, str], float] = {}
        for kind, (keys, X) in features(cells, r["measurement"]).items():
            if keys:
                probs.update(zip(keys, models[kind].predict_proba(X)[:, 1].tolist(), strict=True))
        out.append(probs)
    return out


def _reading(r: dict, probs: dict | None, bands: dict | None):
    from bench_photos import model_reading

    return model_reading(layout(r["layout"])[0], r["measurement"], probs, bands)


def score(records: list[dict], probs: list[dict], bands: dict) -> tuple[int, int]:
    """``(fields wrong without a ?, fields read)`` over ``records`` with these bands."""
    from bench_photos import evaluate

    wrong = read = 0
    for r, pr in zip(records, probs, strict=True):
        res = evaluate(_reading(r, pr, bands), r["truth"])
        wrong += len(res["wrong"])
        read += res["read"]
    return wrong, read


STEPS = (4.0, 2.0, 1.0, 0.5, 0.25)
"""The band's moves in log-odds, coarse to fine, while it is narrowed on the validation split."""
MARGIN = 0.5
"""Log-odds the narrowed band is widened back by on each side, for photos unlike the validation split's."""


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return float(np.log(p / (1 - p)))


def _prob(z: float) -> float:
    return float(1 / (1 + np.exp(-z)))


def narrow(records: list[dict], probs: list[dict], bands: dict, console: Console) -> dict:
    """The bands narrowed, kind by kind and side by side, while no field of ``records`` is read wrong and more are
    read (a card's logic, one rank and one suit, makes many single targets' doubts harmless); then widened by
    :data:`MARGIN`.  A band always holds 0.5: a target likelier marked than not is never read blank, nor the other
    way round."""
    z = {k: [_logit(lo), _logit(hi)] for k, (lo, hi) in bands.items()}

    def as_bands(zz: dict) -> dict:
        return {k: (_prob(lo), _prob(hi)) for k, (lo, hi) in zz.items()}

    wrong, read = score(records, probs, as_bands(z))
    console.print(f"per-target bands: {wrong} fields wrong, {read} read")
    for step in STEPS:
        moved = True
        while moved:
            moved = False
            for kind in z:
                for side, sign in ((0, 1.0), (1, -1.0)):
                    trial = {k: list(v) for k, v in z.items()}
                    trial[kind][side] += sign * step
                    if trial[kind][0] > 0.0 or trial[kind][1] < 0.0:  # (never blank when likelier marked)
                        continue
                    w, rd = score(records, probs, as_bands(trial))
                    if w == 0 and rd > read:
                        z, read, moved = trial, rd, True
        console.print(
            f"step {step}: {read} fields read; "
            + ", ".join(f"{k} {_prob(a):.4f}–{_prob(b):.4f}" for k, (a, b) in z.items())
        )
    return as_bands(
        {k: [max(a - MARGIN, _logit(bands[k][0])), min(b + MARGIN, _logit(bands[k][1]))] for k, (a, b) in z.items()}
    )


def evaluate_both(records: list[dict]) -> dict[str, dict[str, list]]:
    """Per family, each reader's sheet results on the same measurements:
    ``{family: {"rules": [...], "model": [...]}}``."""
    from bench_photos import evaluate

    out: dict[str, dict[str, list]] = defaultdict(lambda: {"rules": [], "model": []})
    for r in records:
        out[r["family"]]["rules"].append(r["rules"])
        out[r["family"]]["model"].append(evaluate(_reading(r, None, None), r["truth"]))
    return out


def table(results: dict[str, dict[str, list]], title: str) -> Table:
    t = Table(title=title)
    for col in (
        "family",
        "sheets",
        "rules exact",
        "model exact",
        "rules flagged",
        "model flagged",
        "rules wrong",
        "model wrong",
        "rules fields read",
        "model fields read",
    ):
        t.add_column(col, justify="left" if col == "family" else "right")
    total: dict[str, list] = {"rules": [], "model": []}
    for family in sorted(results):
        res = results[family]
        for k in total:
            total[k].extend(res[k])
        t.add_row(family, *_figures(res))
    t.add_row("all", *_figures(total), style="bold")
    return t


def _figures(res: dict[str, list]) -> list[str]:
    n = len(res["rules"])
    cols = [str(n)]
    for what in ("exact", "flagged"):
        cols += [f"{100 * sum(r[what] for r in res[k]) / n:.0f} %" for k in ("rules", "model")]
    cols += [str(sum(1 for r in res[k] if r["wrong"])) for k in ("rules", "model")]
    cols += [
        f"{100 * sum(r['read'] for r in res[k]) / max(1, sum(r['fields'] for r in res[k])):.1f} %"
        for k in ("rules", "model")
    ]
    return cols


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=ROOT / "output" / "reader-corpus")
    ap.add_argument("--seed", type=int, default=7, help="the trees' random seed (default 7)")
    ap.add_argument("--write", action="store_true", help=f"write the weights to {WEIGHTS.relative_to(ROOT)}")
    ap.add_argument(
        "--report", choices=("validation", "test"), default="test", help="the split compared (default test)"
    )
    args = ap.parse_args()
    console = Console()
    from generator.reader.model import KINDS, Forest

    train = load(args.corpus, "train")
    valid = load(args.corpus, "validation")
    console.print(f"train {len(train)} photos, validation {len(valid)}")
    Xt, Xv = rows(train), rows(valid)
    models, bands = {}, {}
    for kind in track(KINDS, description="training", console=console):
        models[kind] = fit(*Xt[kind], args.seed)
        X, y = Xv[kind]
        bands[kind] = band(models[kind].predict_proba(X)[:, 1], y)
        console.print(
            f"{kind}: {len(Xt[kind][1])} training targets ({int(Xt[kind][1].sum())} marked); per-target band "
            f"{bands[kind][0]:.4f}–{bands[kind][1]:.4f}"
        )
    bands = narrow(valid, probabilities(valid, models), bands, console)
    arrays: dict[str, np.ndarray] = {}
    for kind in KINDS:
        arrays |= export(models[kind], kind, bands[kind])
        X = Xv[kind][0]
        mine = Forest(arrays, kind).probability(X)
        assert np.allclose(mine, models[kind].predict_proba(X)[:, 1], atol=1e-9), f"{kind}: the export differs"
        console.print(f"{kind}: band {bands[kind][0]:.4f}–{bands[kind][1]:.4f}")
    if args.write:
        tmp = WEIGHTS.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, **arrays)
        tmp.replace(WEIGHTS)
        console.print(f"wrote {WEIGHTS.relative_to(ROOT)} ({WEIGHTS.stat().st_size / 1024:.0f} KB)")
    from generator.reader import model as shipped

    shipped.forests.cache_clear()
    if not args.write:  # compare with the weights just trained, not the shipped ones
        shipped.forests = lambda: {k: Forest(arrays, k) for k in KINDS}  # type: ignore[assignment]
    report = load(args.corpus, args.report)
    console.print(table(evaluate_both(report), f"{args.report} split: the rules reader and the model reader"))


if __name__ == "__main__":
    main()
