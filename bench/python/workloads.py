"""The benchmark workloads of bench/README.md, for the Python programs."""

PHRASES = ["alpha & beta", "Café résumé", "x < y > z", "中文字符测试", "plain text value",
           "Tom & Jerry <b>", "naïve façade", "数据-data-mix"]

DEFAULT_ROWS = {"W1": 1_000_000, "W2": 100_000, "W3": 200_000}


def header(name):
    return ["col%d" % (j + 1) for j in range(10)] if name == "W1" else None


def rows(name, n=None):
    n = n or DEFAULT_ROWS[name]
    if name == "W1":
        for i in range(n):
            yield [i, i * 7 % 100000, i * 13 % 1000, i * 31 % 1000000, i * 1.25 + 0.5, (i % 10000) / 100, i / 7,
                   "name-%d" % (i % 1000), "city-%d" % (i % 50), "x%d" % i]
    elif name == "W2":
        for i in range(n):
            yield [(i * (j + 1)) % 1000003 if j % 2 == 0 else ((i * j) % 100000) / 100 for j in range(100)]
    elif name == "W3":
        for i in range(n):
            yield ["row %d col %d: %s" % (i, j, PHRASES[(3 * i + j) % 8]) for j in range(10)]
    else:
        raise SystemExit("unknown workload " + name)
