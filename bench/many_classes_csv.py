#!/usr/bin/env python3
"""A 26-class CSV for the import-time and halting benchmarks (standard library only).

    python3 bench/many_classes_csv.py OUT.csv [--rows 8000] [--seed 5]

16 integer features in 0..15 around one random centre per class (+-7 uniform noise, clipped), target
"letter" A..Z: classes overlap, so a random forest grows deep trees (the 100-tree forest of the
benchmarks has 279,734 nodes). Then:

    build/urnforest train --data OUT.csv --target letter --trees 100 --out F.urnf
    build/urnforest export --model F.urnf --onnx F.onnx          # every class weight of every leaf
    python3 bench/onnx_unpacked.py F.onnx F_unpacked.onnx        # as the onnx package writes lists
"""
import argparse
import random

parser = argparse.ArgumentParser()
parser.add_argument('out')
parser.add_argument('--rows', type=int, default=8000)
parser.add_argument('--seed', type=int, default=5)
args = parser.parse_args()
random.seed(args.seed)
CLASSES, FEATURES = 26, 16
centres = [[random.randint(0, 15) for _ in range(FEATURES)] for _ in range(CLASSES)]
with open(args.out, 'w') as f:
    f.write(','.join(f'x{i}' for i in range(FEATURES)) + ',letter\n')
    for _ in range(args.rows):
        c = random.randrange(CLASSES)
        row = [min(15, max(0, centres[c][i] + random.randint(-7, 7))) for i in range(FEATURES)]
        f.write(','.join(map(str, row)) + f',{chr(65 + c)}\n')
