#!/usr/bin/env python3
"""Rewrites an ONNX file's packed AttributeProto.floats/ints as unpacked repeated fields.

    python3 bench/onnx_unpacked.py IN.onnx OUT.onnx

proto2's default encoding, which the onnx Python package (skl2onnx, onnxmltools) writes: one key
per value. urnforest's exporter packs its lists; the import benchmark reads both. Standard library
only; only ModelProto.graph.node.attribute is rewritten, every other byte is copied as it is.
"""
import sys

def rv(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if c < 0x80: return v, i

def wv(v):
    out = bytearray()
    while True:
        c = v & 0x7f; v >>= 7
        if v: out.append(c | 0x80)
        else: out.append(c); return bytes(out)

def fields(b):
    i = 0
    while i < len(b):
        key, i = rv(b, i); num, wt = key >> 3, key & 7
        if wt == 0:
            v, j = rv(b, i); yield num, wt, b[i:j]; i = j
        elif wt == 1: yield num, wt, b[i:i+8]; i += 8
        elif wt == 5: yield num, wt, b[i:i+4]; i += 4
        elif wt == 2:
            n, i = rv(b, i); yield num, wt, b[i:i+n]; i += n
        else: raise ValueError(wt)

def enc(num, wt, payload):
    k = wv((num << 3) | wt)
    return k + (wv(len(payload)) + payload if wt == 2 else payload)

def attribute(b):
    out = bytearray()
    for num, wt, p in fields(b):
        if num == 7 and wt == 2:
            for j in range(0, len(p), 4): out += enc(7, 5, p[j:j+4])
        elif num == 8 and wt == 2:
            i = 0
            while i < len(p):
                v, j = rv(p, i); out += enc(8, 0, p[i:j]); i = j
        else: out += enc(num, wt, p)
    return bytes(out)

def rewrite(b, path):
    out = bytearray()
    for num, wt, p in fields(b):
        if wt == 2 and num in path:
            p = path[num](p)
        out += enc(num, wt, p)
    return bytes(out)

node = lambda b: rewrite(b, {5: attribute})
graph = lambda b: rewrite(b, {1: node})
model = lambda b: rewrite(b, {7: graph})
data = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(model(data))
