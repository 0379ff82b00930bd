"""``thieves simulate --report report.html``: one self-contained HTML page of plots.

Plots (matplotlib, the optional ``report`` extra): the win matrix (each bot's
win share from each seat), each bot's score distribution, the distribution of
game lengths and, where the game names its components' use
(:mod:`thieves.bots.usage`), one chart per kind of component: the win share of
the seats that used each one, for every point of a sweep.
"""
from __future__ import annotations

import base64
import html
import io
from typing import Any, Mapping, Sequence

from ..bots.match import MatchResult
from ..bots.usage import ItemStats, adjusted_p, flagged, item_label, item_stats
from ..core.errors import ThievesError
from .sweeps import point_label, share_of, sweep_tests


def check_report_deps() -> None:
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        raise ThievesError("--report needs matplotlib: pip install 'thieves[report]'") from None


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


#: the most used components shown in one chart
MAX_ITEMS = 40


#: figure widths in inches: for a wide page, and for a phone's (a narrow page shows the narrow
#: drawing at about its own size, so its text stays as large as on the wide page)
WIDE, NARROW = 7.0, 3.9


def _fit(label: str, width: float) -> str:
    """A label for a drawing ``width`` inches wide: on a narrow one its bracket goes on a line
    of its own."""
    return label.replace(" (", "\n(", 1) if width < WIDE else label


def whole_bins(values: Sequence[int], most: int = 30) -> list[float]:
    """Histogram bin edges for a whole-number quantity: each bin holds the same count of
    whole numbers (at most ``most`` bins), its edges halfway between two of them, so no
    whole number is split between bins or shares an edge."""
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // most))
    edges = [low - 0.5]
    while edges[-1] < high:
        edges.append(edges[-1] + width)
    return edges


def _figures(result: MatchResult, names: Mapping[tuple[str, str], str] | None = None,
             width: float = WIDE) -> list[tuple[str, str]]:
    """(title, PNG in base64) of every chart, drawn ``width`` inches wide."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = result.summary()
    n = s.num_players
    out = []
    # win matrix: bots x seats
    fig, ax = plt.subplots(figsize=(min(width, 1.6 + 1.1 * n), 0.9 + 0.55 * len(s.entries)))
    grid = [[e.by_seat[i].rate if e.by_seat[i].games else float("nan") for i in range(n)] for e in s.entries]
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(n), [f"seat {i + 1}" for i in range(n)])
    ax.set_yticks(range(len(s.entries)), [e.label for e in s.entries])
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == v:
                ax.text(c, r, f"{100 * v:.0f}%\n({s.entries[r].by_seat[c].games})", ha="center",
                        va="center", fontsize=9, color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.set_title(_fit("Win share by bot and seat (games in brackets)", width))
    fig.colorbar(im, ax=ax, fraction=0.04)
    out.append(("Win matrix", _png(fig)))
    plt.close(fig)
    # score distributions
    fig, ax = plt.subplots(figsize=(width, 3.2))
    data = [[rec.scores[seat] for rec in result.records for seat, e in enumerate(rec.entries) if e == k]
            for k in range(len(s.entries))]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(s.entries) + 1), [e.label for e in s.entries])
    ax.set_ylabel("final score")
    ax.set_title(_fit("Score distribution per bot (box: quartiles, triangle: mean)", width))
    out.append(("Scores", _png(fig)))
    plt.close(fig)
    # game lengths
    fig, ax = plt.subplots(figsize=(width, 3.2))
    lengths = [r.decisions for r in result.records]
    ax.hist(lengths, bins=whole_bins(lengths), color="#4a7ab5")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title(f"Game length (mean {s.lengths.mean:.1f}, median {s.lengths.median:g})")
    out.append(("Game length", _png(fig)))
    plt.close(fig)
    by_category: dict[str, list[ItemStats]] = {}
    for st in item_stats(result.records):
        by_category.setdefault(st.category, []).append(st)
    for category, items in by_category.items():
        fig = _items_figure(plt, category, items, names or {}, width)
        out.append((f"Win share by {category} used", _png(fig)))
        plt.close("all")
    return out


def _items_figure(plt: Any, category: str, items: list[ItemStats], names: Mapping[tuple[str, str], str],
                  width: float = WIDE) -> Any:
    """Horizontal bars: the win share of the seats that used each component (95%
    interval as whiskers) against the share of all seats (the dashed line)."""
    shown = sorted(sorted(items, key=lambda x: -x.used.games)[:MAX_ITEMS], key=lambda x: x.used.rate)
    # the names of the components stand left of the chart: a narrow drawing leaves them room
    fig, ax = plt.subplots(figsize=(width + 0.5 if width >= WIDE else width - 0.9, 1.0 + 0.28 * len(shown)))
    rates = [x.used.rate for x in shown]
    # whiskers: the interval's ends (rounding may put an end a hair past the rate)
    lows = [max(0.0, x.used.rate - x.used.interval[0]) for x in shown]
    highs = [max(0.0, x.used.interval[1] - x.used.rate) for x in shown]
    ax.barh(range(len(shown)), rates, xerr=[lows, highs], color="#4a7ab5", ecolor="#333", capsize=2)
    ax.set_yticks(range(len(shown)), [f"{item_label(names, category, x.item)} ({x.used.games})" for x in shown],
                  fontsize=8)
    first = items[0]
    overall = (first.used.wins + first.unused.wins) / max(1, first.used.games + first.unused.games)
    ax.axvline(overall, color="#b5504a", linestyle="--", label=f"all seats {100 * overall:.0f}%")
    ax.set_xlim(0, 1)
    ax.set_xlabel(_fit("win share of the seats that used it (seat-games in brackets)", width))
    more = f", the {MAX_ITEMS} most used of {len(items)}" if len(items) > MAX_ITEMS else ""
    ax.set_title(f"Win share by {category} used{more}", wrap=True)
    ax.legend(loc="lower right", fontsize=8)
    return fig


def write_report(path: str, game_name: str, results: Sequence[tuple[dict[str, Any], MatchResult]],
                 names: Mapping[tuple[str, str], str] | None = None) -> None:
    """Write the page; ``names`` gives components' display names (:func:`thieves.bots.usage.item_names`)."""
    check_report_deps()
    parts = [f"<!doctype html><html lang='en'><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>{html.escape(game_name)} simulation</title>"
             "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}"
             "img{max-width:100%;height:auto}table{border-collapse:collapse}td,th{padding:.2rem .6rem;"
             "border-bottom:1px solid #ddd;text-align:right}th:first-child,td:first-child{text-align:left}"
             "</style><h1>" + html.escape(game_name) + " simulation</h1>"]
    for point, result in results:
        s = result.summary()
        label = ", ".join(f"{k}={v}" for k, v in point.items())
        parts.append(f"<h2>{s.num_players} players, {s.games} games{(' · ' + html.escape(label)) if label else ''}</h2>")
        parts.append("<table><tr><th>bot</th><th>win %</th><th>95% interval</th><th>mean score</th>"
                     "<th>sd</th></tr>")
        for e in s.entries:
            lo, hi = e.share.interval
            parts.append(f"<tr><td>{html.escape(e.label)}</td><td>{100 * e.share.rate:.1f}</td>"
                         f"<td>{100 * lo:.1f}–{100 * hi:.1f}</td><td>{e.scores.mean:.2f}</td>"
                         f"<td>{e.scores.sd:.2f}</td></tr>")
        parts.append("</table>")
        fp = s.first_player
        lo, hi = fp.interval
        parts.append(f"<p>First player (as the rules choose) wins {100 * fp.rate:.1f}% "
                     f"[{100 * lo:.1f}–{100 * hi:.1f}] of the {fp.games} games with a winner "
                     f"(fair share {100 * s.fair_share:.1f}%). No winner: {s.no_winner} of {s.games} games.</p>")
        parts.extend(_items_table(result, names or {}))
        narrow = dict(_figures(result, names, NARROW))
        for title, png in _figures(result, names):
            # a phone gets the narrow drawing, whose text is not shrunk to fit
            parts.append(f"<h3>{html.escape(title)}</h3><picture><source media='(max-width: 40rem)' "
                         f"srcset='data:image/png;base64,{narrow[title]}'><img alt='{html.escape(title)}' "
                         f"src='data:image/png;base64,{png}'></picture>")
    if len(results) > 1:
        parts.extend(_sweep_table(results))
    parts.append("</html>")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts))


def _pv(p: float | None) -> str:
    return "–" if p is None else ("&lt;0.001" if p < 0.001 else f"{p:.3f}")


def _ci(share: Any) -> str:
    lo, hi = share.interval
    return f"{100 * share.rate:.1f}% [{100 * lo:.0f}–{100 * hi:.0f}]"


def _items_table(result: MatchResult, names: Mapping[tuple[str, str], str]) -> list[str]:
    """Every component's figures, with the p-value of its gap adjusted for the number of
    components compared (Benjamini-Hochberg)."""
    stats = item_stats(result.records)
    if not stats:
        return []
    q = adjusted_p(stats)
    out = [f"<h3>Components</h3><p>p: two-proportion z-test of the gap between the seats that used a "
           f"component and the others, not adjusted. <b>p adjusted</b>: adjusted for the {len(stats)} components "
           f"compared (Benjamini-Hochberg, false discovery rate); * adjusted p ≤ 0.05.</p>",
           "<table><tr><th>component</th><th>seat-games</th><th>win % used [95%]</th><th>win % not used</th>"
           "<th>gap</th><th>p</th><th>p adjusted (BH)</th></tr>"]
    for st, qv in zip(stats, q):
        out.append(f"<tr><td>{html.escape(st.category)}: {html.escape(item_label(names, st.category, st.item))}</td>"
                   f"<td>{st.used.games}</td><td>{_ci(st.used)}</td>"
                   f"<td>{_ci(st.unused) if st.unused.games else '–'}</td>"
                   f"<td>{f'{100 * st.gap:+.1f}' if st.unused.games else '–'}</td>"
                   f"<td>{_pv(st.p)}</td><td>{_pv(qv)}{' *' if flagged(qv) else ''}</td></tr>")
    out.append("</table>")
    return out


def _sweep_table(results: Sequence[tuple[dict[str, Any], MatchResult]]) -> list[str]:
    """The sweep's points side by side, and the Holm-adjusted tests of their differences."""
    summaries = [r.summary() for _, r in results]
    heads = "".join(f"<th>{html.escape(point_label(p))}</th>" for p, _ in results)
    out = ["<h2>Sweep side by side</h2><table><tr><th>win % [95% interval]</th>" + heads + "</tr>"]
    for label in [*summaries[0].labels, "first player"]:
        out.append(f"<tr><td>{html.escape(label)}</td>"
                   + "".join(f"<td>{_ci(share_of(s, label))}</td>" for s in summaries) + "</tr>")
    out.append("</table>")
    tests = sweep_tests(list(results))
    out.append(f"<p>Differences: two-proportion z-test; <b>p adjusted</b> by Holm over the {len(tests)} tests "
               "(family-wise); * adjusted p ≤ 0.05.</p><table><tr><th></th><th>between</th><th>and</th>"
               "<th>difference</th><th>p</th><th>p adjusted (Holm)</th></tr>")
    for label, i, j, p, qv in tests:
        a, b = (share_of(summaries[k], label) for k in (i, j))
        out.append(f"<tr><td>{html.escape(label)}</td><td>{html.escape(point_label(results[i][0]))}</td>"
                   f"<td>{html.escape(point_label(results[j][0]))}</td><td>{100 * (a.rate - b.rate):+.1f}</td>"
                   f"<td>{_pv(p)}</td><td>{_pv(qv)}{' *' if flagged(qv) else ''}</td></tr>")
    out.append("</table>")
    return out
