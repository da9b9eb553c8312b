#!/usr/bin/env python3
"""Regenerates the seed corpus in tests/fuzz/corpus/<target>/ (checked in; rerun after format changes).

    python3 tests/fuzz/make_corpus.py [path/to/urnforest-cli]

CSV seeds are cuts of datasets/ plus hand-written edge cases, each prefixed with the option
bytes the target expects (see the comment at the top of each tests/fuzz/fuzz_*.cpp). Model seeds
are small forests trained by the native CLI (default: build/urnforest); without it they are skipped.
"""
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
DATASETS = os.path.join(ROOT, "datasets")


def cut(name, rows, every=1, max_cols=None):
    """Header + `rows` data rows (every `every`-th, so several classes appear), optionally fewer
    columns (the last column, the class, is always kept)."""
    with open(os.path.join(DATASETS, name), "rb") as f:
        lines = f.read().split(b"\n")
    header, data = lines[0], [l for l in lines[1:] if l]
    picked = data[::every][:rows]
    out = []
    for line in [header] + picked:
        if max_cols is not None:
            cells = line.split(b",")
            line = b",".join(cells[: max_cols - 1] + cells[-1:])
        out.append(line)
    return b"\n".join(out) + b"\n"


EDGE_CSVS = {
    "empty": b"",
    "bom_only": b"\xef\xbb\xbf",
    "blank_lines": b"\n \n\t\n",
    "header_only": b"a,b,class\n",
    "ragged_more": b"a,b,class\n1,2,x\n1,2,3,y\n",
    "ragged_less": b"a,b,class\n1,2,x\n1,y\n",
    "unterminated_quote": b'a,b,class\n1,"2,x\n3,4,y\n',
    "bad_quote": b'a,b,class\n1,2"3,x\n',
    "text_after_quote": b'a,b,class\n1,"2"3,x\n',
    "bom_crlf": b"\xef\xbb\xbfa,b,class\r\n1,2,x\r\n3,4,y\r\n",
    "lone_cr": b"a,b,class\r1,2,x\r3,4,y\r",
    "invalid_utf8": b"a,b,class\n1,\xff\xfe,x\n3,4,y\n",
    "overlong_utf8": b"a,b,class\n1,\xc0\xaf,x\n",
    "utf8_names": "\u00e9t\u00e9,\u65e5\u672c,class\n1,2,\u00fc\n3,4,\u00e4\n".encode(),
    "nan_inf": b"a,b,class\n1,nan,x\ninf,2,y\n-Infinity,1e39,x\n1e-50,-0,y\n",
    "huge_numbers": b"a,b,class\n3.4028235e38,-3.4028235e38,x\n3.4028236e38,1e-46,y\n",
    "missing_markers": b"a,b,class\n?,NA,x\n,\"\",y\n\"NA\",\"?\",x\n",
    "all_missing": b"a,b,class\n?,?,x\nNA,,y\n,NA,x\n",
    "one_class": b"a,b,class\n1,2,x\n3,4,x\n5,6,x\n",
    "class_one_row": b"a,b,class\n1,2,x\n3,4,x\n5,6,y\n",
    "constant_features": b"a,b,class\n1,k,x\n1,k,y\n1,k,x\n1,k,y\n",
    "duplicate_columns": b"a,a,class\n1,2,x\n",
    "missing_label": b"a,b,class\n1,2,\n3,4,y\n",
    "quoted_everything": b'"a","b","class"\n"1","x,y","p ""q"""\n"2","line\nbreak","r"\n',
    "spaces": b"  a , b ,class\n 1 ,  \"x\" ,y\n\t2\t,z , w\n",
    "numbers_forms": b"a,b,class\n+1.5e+3,.5,x\n-0.0,5.,y\n0x10,1e,x\n",
    "one_column": b"class\nx\ny\nNA\n",
    "target_a_first": b"a,b,class\nx,1,p\ny,2,q\n",
    "many_categories": b"a,class\n" + b"".join(b"v%d,c%d\n" % (i, i % 3) for i in range(60)),
    "schema_like": b"b,a,class,extra\nx,1.5,no,9\ny,?,yes,8\nz,2,1,7\n",
}


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    real = {
        "iris": cut("iris.csv", 12, every=12),
        "wine": cut("wine.csv", 9, every=20, max_cols=6),
        "ionosphere": cut("ionosphere.csv", 8, every=40, max_cols=6),
        "soybean": cut("soybean.csv", 10, every=60, max_cols=8),
        "vehicle": cut("vehicle.csv", 8, every=100, max_cols=5),
        "sonar": cut("sonar.csv", 6, every=30, max_cols=5),
        "wdbc": cut("wdbc.csv", 6, every=90, max_cols=5),
    }
    # fuzz_csv: flag byte (bit 5: own-schema oracle, bit 4: fixed schema, bits 2-3 target choice).
    for name, text in real.items():
        write("fuzz_csv", "real_" + name, bytes([0x20]) + text)
        write("fuzz_csv", "real_" + name + "_schema", bytes([0x30]) + text)
    for name, text in EDGE_CSVS.items():
        write("fuzz_csv", "edge_" + name, bytes([0x20]) + text)
    write("fuzz_csv", "flags_no_target", bytes([0x01]) + real["iris"])
    write("fuzz_csv", "flags_first_seen_target_a", bytes([0x2A]) + EDGE_CSVS["target_a_first"])
    write("fuzz_csv", "flags_target_class", bytes([0x24]) + real["soybean"])

    # fuzz_train: 4 option bytes, then 0x80 + CSV, or a synthetic table.
    opts = [bytes([2, 0x20, 0x00, 1]), bytes([4, 0x01, 0x02, 7]), bytes([0, 0x0A, 0x09, 3])]
    for i, (name, text) in enumerate(real.items()):
        write("fuzz_train", "csv_" + name, opts[i % len(opts)] + b"\x80" + text)
    for name in ["all_missing", "constant_features", "class_one_row", "one_class", "spaces",
                 "many_categories", "missing_markers", "huge_numbers"]:
        write("fuzz_train", "csv_edge_" + name, opts[0] + b"\x80" + EDGE_CSVS[name])
    rng = random.Random(20240501)
    for i in range(8):
        body = bytes(rng.randrange(256) for _ in range(200))
        write("fuzz_train", "synthetic_%d" % i, opts[i % len(opts)] + b"\x00" + body)
    write("fuzz_train", "synthetic_categorical_12",
          bytes([2, 0x00, 0x00, 5, 0x00, 30, 0xF3, 0xB0]) + bytes(rng.randrange(256) for _ in range(200)))
    write("fuzz_train", "invalid_zero_trees", bytes([255, 0, 0, 1, 0x80]) + EDGE_CSVS["class_one_row"])

    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "urnforest")
    if not os.path.exists(cli):
        print("no CLI at %s: model seeds skipped" % cli)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for name, trees, seed in [("iris", 3, 1), ("wine", 2, 2), ("ionosphere", 2, 3),
                                  ("soybean", 3, 4), ("vehicle", 1, 5)]:
            csv = os.path.join(tmp, name + ".csv")
            model = os.path.join(tmp, name + ".urnf")
            with open(csv, "wb") as f:
                f.write(real[name])
            subprocess.run([cli, "train", "--data", csv, "--trees", str(trees), "--seed", str(seed),
                            "--out", model], check=True, stdout=subprocess.DEVNULL)
            with open(model, "rb") as f:
                data = f.read()
            write("fuzz_model", "model_" + name, b"\x00" + data)
            write("fuzz_model", "model_" + name + "_raw", b"\x01" + data)
    write("fuzz_model", "bad_magic", b"\x01" + b"NOPE" + bytes(20))
    write("fuzz_model", "future_version", b"\x01URNF\x02\x00\x00\x00" + bytes(12))
    write("fuzz_model", "truncated_header", b"\x01URNF\x01\x00")


if __name__ == "__main__":
    main()
