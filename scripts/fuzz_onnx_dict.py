#!/usr/bin/python3
"""Writes tests/fuzz/fuzz_onnx.dict, the libFuzzer dictionary of fuzz_onnx (scripts/fuzz.sh passes
it with -dict=): the tree-ensemble ops' attribute names, node modes and post-transforms, the op
types and domains the importer reads. Each word appears bare and as the protocol-buffers field
that holds it in an ONNX file (tag byte and length, then the bytes), so that a mutation can insert
a whole attribute name, op type or domain where the reader looks for one.

Usage: scripts/fuzz_onnx_dict.py > tests/fuzz/fuzz_onnx.dict
"""

ATTRIBUTES = """
base_values base_values_as_tensor class_ids class_nodeids class_treeids class_weights
class_weights_as_tensor classlabels_int64s classlabels_strings nodes_falsenodeids nodes_featureids
nodes_hitrates nodes_hitrates_as_tensor nodes_missing_value_tracks_true nodes_modes nodes_nodeids
nodes_treeids nodes_truenodeids nodes_values nodes_values_as_tensor post_transform
aggregate_function leaf_targetids leaf_weights membership_values n_targets nodes_falseleafs
nodes_trueleafs nodes_splits tree_roots axis keepdims select_last_index to
""".split()
STRINGS = """
BRANCH_LEQ BRANCH_LT BRANCH_GTE BRANCH_GT BRANCH_EQ BRANCH_NEQ BRANCH_MEMBER LEAF
NONE LOGISTIC SOFTMAX SOFTMAX_ZERO PROBIT
""".split()
OP_TYPES = "TreeEnsembleClassifier TreeEnsemble TreeEnsembleRegressor ArgMax ZipMap Cast Identity Scaler".split()
DOMAINS = ["ai.onnx.ml", "ai.onnx"]

# Field tags (field number << 3 | 2, length-delimited): AttributeProto.name 1, AttributeProto.s 4,
# AttributeProto.strings 9, NodeProto.op_type 4, NodeProto.domain 7, OperatorSetIdProto.domain 1.
ATTRIBUTE_NAME, ATTRIBUTE_S, ATTRIBUTE_STRINGS, OP_TYPE, NODE_DOMAIN, OPSET_DOMAIN = 0x0A, 0x22, 0x4A, 0x22, 0x3A, 0x0A


def quoted(data: bytes) -> str:
    return '"' + "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else "\\x%02X" % b for b in data) + '"'


def field(tag: int, word: str) -> bytes:
    data = word.encode()
    assert len(data) < 128  # a one-byte length
    return bytes([tag, len(data)]) + data


def main() -> None:
    print("# libFuzzer dictionary of fuzz_onnx, written by scripts/fuzz_onnx_dict.py (do not edit by hand).")
    entries = []
    for words, tags in ((ATTRIBUTES, [ATTRIBUTE_NAME]), (STRINGS, [ATTRIBUTE_S, ATTRIBUTE_STRINGS]),
                        (OP_TYPES, [OP_TYPE]), (DOMAINS, [NODE_DOMAIN, OPSET_DOMAIN])):
        for w in words:
            entries.append(w.encode())
            entries.extend(field(t, w) for t in tags)
    seen = set()
    for e in entries:
        if e not in seen:
            seen.add(e)
            print(quoted(e))


if __name__ == "__main__":
    main()
