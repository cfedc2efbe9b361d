"""Summarises bench/run.sh's results: medians per tool and workload, the
ratio of sheetstream to the best peer, versions, and a chart."""
import csv
import platform
import statistics
import subprocess
import sys
from collections import defaultdict


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception:
        return "?"


results, chart = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(results), delimiter="\t"))
by = defaultdict(list)
for r in rows:
    by[(r["workload"], r["tool"])].append(r)
workloads = sorted({r["workload"] for r in rows})
tools = list(dict.fromkeys(r["tool"] for r in rows))


def med(key, w, t):
    return statistics.median(float(r[key]) for r in by[(w, t)])


print("Machine: %s, %s cores, %s" % (sh("lscpu | sed -n 's/^Model name: *//p'"), sh("nproc"), platform.platform()))
print()
print("Versions: %s; excelize %s; rust_xlsxwriter %s; libxlsxwriter %s; XlsxWriter %s; openpyxl %s; dhatim fastexcel %s (%s)." % (
    sh("go version | cut -d' ' -f3"),
    sh("grep 'xuri/excelize' go.mod | awk '{print $2}'"),
    sh("grep -A1 'name = \"rust_xlsxwriter\"' rust/Cargo.lock | sed -n 's/version = //p' | tr -d '\"'"),
    sh("dpkg-query -W -f='${Version}' libxlsxwriter-dev"),
    sh(sys.executable + " -c 'import xlsxwriter; print(xlsxwriter.__version__)'"),
    sh(sys.executable + " -c 'import openpyxl; print(openpyxl.__version__)'"),
    sh("sed -n 's:.*<version>\\(0\\.[0-9.]*\\)</version>.*:\\1:p' java/pom.xml | head -1"),
    sh("java -version 2>&1 | head -1")))
print()
for w in workloads:
    print("### %s (median of %d runs)" % (w, len(by[(w, tools[0])])))
    print()
    print("| tool | wall s | CPU s | peak RSS MiB | output MB |")
    print("|---|---:|---:|---:|---:|")
    for t in tools:
        if (w, t) not in by:
            continue
        cpu = med("user_s", w, t) + med("sys_s", w, t)
        print("| %s | %.2f | %.2f | %.1f | %.1f |" % (t, med("wall_s", w, t), cpu, med("maxrss_kb", w, t) / 1024,
                                                  med("bytes", w, t) / 1e6))
    peers = [t for t in tools if not t.startswith("sheetstream") and (w, t) in by]
    if peers and (w, "sheetstream") in by:
        best = min(peers, key=lambda t: med("wall_s", w, t))
        print()
        print("sheetstream / %s (the fastest peer): wall %.2fx, peak RSS %.2fx, size %.2fx" % (
            best, med("wall_s", w, "sheetstream") / med("wall_s", w, best),
            med("maxrss_kb", w, "sheetstream") / med("maxrss_kb", w, best),
            med("bytes", w, "sheetstream") / med("bytes", w, best)))
    print()

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, len(workloads), figsize=(4.5 * len(workloads), 7), squeeze=False)
    for col, w in enumerate(workloads):
        ts = [t for t in tools if (w, t) in by]
        for row, (key, label, scale) in enumerate([("wall_s", "wall time (s)", 1), ("maxrss_kb", "peak RSS (MiB)", 1024)]):
            ax = axes[row][col]
            vals = [med(key, w, t) / scale for t in ts]
            colors = ["#d62728" if t.startswith("sheetstream") else "#7f7f7f" for t in ts]
            ax.barh(ts, vals, color=colors)
            ax.set_xscale("log")
            ax.set_title("%s: %s" % (w, label), fontsize=10)
            ax.invert_yaxis()
            ax.tick_params(labelsize=8)
    fig.tight_layout()
    fig.savefig(chart, dpi=80)
except ImportError:
    pass
