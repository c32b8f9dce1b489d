"""Tests of corefscore.plotting: headless figures, PNG output, what the bars show."""

from __future__ import annotations

import struct
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from corefscore import plotting, stats
from test_stats_synth import CLASSIC, columns, corpus, engine_counts, fixed, response

matplotlib = pytest.importorskip("matplotlib", reason="plots need the notebook extra (matplotlib)")
matplotlib.use("Agg")
from matplotlib.container import BarContainer  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.image import imread  # noqa: E402


@pytest.fixture(scope="module")
def cols() -> list[str]:
    return columns()


@pytest.fixture(scope="module")
def pair(cols):
    docs = corpus(21, 60)
    keys = [d.key for d in docs]
    return (
        engine_counts(keys, [response(d) for d in docs]),
        engine_counts(keys, [fixed(d, 0.5) for d in docs]),
    )


def png_size(path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def check_png(path, width: int, height: int) -> None:
    assert png_size(path) == (width, height)
    pixels = imread(path)
    assert pixels.shape[:2] == (height, width)
    # Something was drawn: not a blank canvas.
    assert len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 10


def test_plot_scores_png_on_own_figure(tmp_path, pair, cols):
    iv = stats.bootstrap_counts(pair[0], cols, CLASSIC, n=200, seed=0)
    fig = Figure(figsize=(6.4, 4.8))
    ax = fig.add_subplot()
    assert plotting.plot_scores(iv, ax=ax) is ax
    out = tmp_path / "scores.png"
    fig.savefig(out, dpi=50)
    check_png(out, 320, 240)


@pytest.mark.parametrize("dpi", [72, 100])
def test_default_figures_save_headless(tmp_path, pair, cols, dpi):
    a, b = pair
    c = stats.compare_counts(a, b, cols, CLASSIC, n=200, seed=0)
    iv = stats.bootstrap_counts(a, cols, CLASSIC, n=200, seed=0)
    for name, ax in {
        "intervals": plotting.plot_scores(iv, quantities=["recall", "precision", "f1"]),
        "comparison": plotting.plot_comparison(c),
        "distribution": plotting.plot_distribution(a, cols, "lea"),
    }.items():
        w, h = ax.figure.get_size_inches()
        assert w > 1 and h > 1
        assert (4 * w, 4 * h) == (round(4 * w), round(4 * h))  # quarter inches: whole pixels
        out = tmp_path / f"{name}.png"
        ax.figure.savefig(out, dpi=dpi)
        check_png(out, round(w * dpi), round(h * dpi))


def test_bars_and_whiskers_show_the_scores(pair, cols):
    iv = stats.bootstrap_counts(pair[0], cols, ["muc", "bcub", "ceafe"], n=300, seed=1)
    ax = plotting.plot_scores(iv)
    names = ["muc", "bcub", "ceafe", "conll"]
    assert [t.get_text() for t in ax.get_xticklabels()] == names
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx([100 * iv[m]["f1"].estimate for m in names])
    bars = next(c for c in ax.containers if isinstance(c, BarContainer))
    segments = bars.errorbar.lines[2][0].get_segments()
    for m, seg in zip(names, segments):
        assert seg[0][1] == pytest.approx(100 * iv[m]["f1"].low)
        assert seg[1][1] == pytest.approx(100 * iv[m]["f1"].high)


def test_plot_scores_zooms_to_the_data_and_labels_the_values(pair, cols):
    iv = stats.bootstrap_counts(pair[0], cols, ["muc", "bcub", "ceafe"], n=300, seed=1)
    ax = plotting.plot_scores(iv)
    names = ["muc", "bcub", "ceafe", "conll"]
    lows = [100 * iv[m]["f1"].low for m in names]
    highs = [100 * iv[m]["f1"].high for m in names]
    bottom, top = ax.get_ylim()
    assert 0 < bottom < min(lows) and max(highs) < top <= 100 + (top - bottom)
    assert top - bottom < 60  # the scores here lie within a few points
    assert [t.get_text() for t in ax.texts] == [f"{100 * iv[m]['f1'].estimate:.1f}" for m in names]
    # Each label sits on its whisker's top, so the two do not overlap.
    assert [t.xy[1] for t in ax.texts] == pytest.approx(highs)
    zero = plotting.plot_scores(iv, zero_baseline=True, labels=False)
    assert zero.get_ylim() == (0.0, 100.0)
    assert len(zero.texts) == 0
    close = plotting.plot_scores({"muc": {"f1": 0.712}, "bcub": {"f1": 0.684}})
    bottom, top = close.get_ylim()
    assert 66 < bottom < 68.4 and 71.2 < top < 75


def test_plot_scores_accepts_mappings_and_results(pair, cols):
    ax = plotting.plot_scores({"muc": {"f1": 0.7}, "bcub": {"f1": 0.25}})
    assert [p.get_height() for p in ax.patches] == pytest.approx([70, 25])
    assert next(c for c in ax.containers if isinstance(c, BarContainer)).errorbar is None
    result = SimpleNamespace(counts_matrix=pair[0], columns=cols, metrics=["muc", "lea"])
    ax = plotting.plot_scores(result, quantities=["recall", "precision"])
    want = stats.corpus_scores(pair[0], cols, ["muc", "lea"])
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx(
        [100 * want[m]["recall"] for m in ("muc", "lea")] + [100 * want[m]["precision"] for m in ("muc", "lea")]
    )
    with pytest.raises(ValueError, match="`metrics` must be among"):
        plotting.plot_scores({"muc": {"f1": 0.7}}, metrics=["lea"])
    with pytest.raises(ValueError, match="`quantities` must be one of"):
        plotting.plot_scores({"muc": {"f1": 0.7}}, quantities="accuracy")
    with pytest.raises(TypeError, match="`scores` must be a mapping"):
        plotting.plot_scores([0.7])


def test_distribution_counts_defined_documents(pair, cols):
    a = pair[0]
    ax = plotting.plot_distribution(a, cols, "muc", bins=10)
    per = stats.per_document_scores(a, cols, ["muc"])
    assert sum(p.get_height() for p in ax.patches) == int(per["muc"]["defined"].sum())
    lines = [ln.get_xdata()[0] for ln in ax.get_lines()]
    assert lines == pytest.approx(
        [
            100 * stats.corpus_scores(a, cols, ["muc"])["muc"]["f1"],
            100 * stats.macro_scores(a, cols, ["muc"])["muc"]["f1"],
        ]
    )
    with pytest.raises(TypeError, match="`columns` must be given"):
        plotting.plot_distribution(a)


def test_comparison_bars_are_the_differences(pair, cols):
    a, b = pair
    c = stats.compare_counts(a, b, cols, CLASSIC, n=300, seed=2)
    ax = plotting.plot_comparison(c)
    widths = [p.get_width() for p in ax.patches]
    assert widths == pytest.approx([100 * c[m].difference for m in c.metrics])
    assert [t.get_text() for t in ax.texts] == [f"p={c[m].p_value:.3g}" for m in c.metrics]
    with pytest.raises(TypeError, match="must be a corefscore Comparison"):
        plotting.plot_comparison({"muc": 1})


def test_missing_matplotlib_names_the_extra(monkeypatch, pair, cols):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"pip install corefscore\[notebook\]"):
        plotting.plot_scores({"muc": {"f1": 0.5}})
    with pytest.raises(ImportError, match=r"pip install corefscore\[notebook\]"):
        plotting.plot_comparison(stats.compare_counts(pair[0], pair[1], cols, ["muc"], n=10, seed=0))


def test_plots_need_no_display_and_no_pyplot(tmp_path):
    """In a fresh interpreter without DISPLAY or MPLBACKEND, a plot saves and pyplot stays unimported."""
    import os
    import subprocess

    import corefscore

    out = tmp_path / "fresh.png"
    code = (
        "import sys\n"
        "from corefscore import plotting\n"
        "ax = plotting.plot_scores({'muc': {'f1': 0.5}, 'lea': {'f1': 0.25}})\n"
        f"ax.figure.savefig({str(out)!r}, dpi=40)\n"
        "print('matplotlib.pyplot' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND")}
    package_root = os.path.dirname(os.path.dirname(corefscore.__file__))
    env["PYTHONPATH"] = os.pathsep.join([package_root, env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
    w, h = png_size(out)
    # Default size for two metrics: 1.5 + 0.8 * 2 = 3.1 in wide, rounded to 3.0; 3.5 in high.
    assert (w, h) == (120, 140)
