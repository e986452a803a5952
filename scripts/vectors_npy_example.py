#!/usr/bin/env python3
"""Loads a `dmconf vectors export-npy` folder with numpy alone.

    python3 scripts/vectors_npy_example.py OUT            # list the vectors
    python3 scripts/vectors_npy_example.py OUT --check    # also recompute DepthToSpace and
                                                          # SpaceToDepth with numpy and compare

--check implements the two depth ops from the OpenVINO specification's reshape-transpose-reshape
formulas (DepthToSpace-1, SpaceToDepth-1) with numpy, independently of dmconf, and compares
them with every valid DepthToSpace / SpaceToDepth vector's expected output, byte for byte.
Exit status 0 when all agree, 1 otherwise, 77 when numpy is not installed.
"""
import json
import os
import sys

try:
    import numpy as np
except ImportError:
    print("numpy is not installed")
    sys.exit(77)


def load(root, entry):
    try:
        return np.load(os.path.join(root, entry["file"]))
    except ValueError:
        # numpy refuses shapes whose byte size overflows even when a dim is 0 (the
        # *.output.representable rule cases hold such zero-sized tensors).
        return None


def depth_to_space(x, b, mode):
    n, c, spatial = x.shape[0], x.shape[1], list(x.shape[2:])
    k = len(spatial)
    cb = c // b**k
    if mode == "blocks_first":
        # x' = reshape(x, [N, b, ..., b, C / b^K, D1, ..., DK])
        # x'' = transpose(x', [0, K + 1, K + 2, 1, K + 3, 2, ..., 2K, K])
        xp = x.reshape([n] + [b] * k + [cb] + spatial)
        order = [0, k + 1]
        for i in range(k):
            order += [k + 2 + i, 1 + i]
    else:
        # x' = reshape(x, [N, C / b^K, b, ..., b, D1, ..., DK])
        # x'' = transpose(x', [0, 1, K + 2, 2, K + 3, 3, ..., 2K + 1, K + 1])
        xp = x.reshape([n, cb] + [b] * k + spatial)
        order = [0, 1]
        for i in range(k):
            order += [k + 2 + i, 2 + i]
    return xp.transpose(order).reshape([n, cb] + [d * b for d in spatial])


def space_to_depth(x, b, mode):
    n, c, spatial = x.shape[0], x.shape[1], list(x.shape[2:])
    k = len(spatial)
    # x' = reshape(x, [N, C, D1 / b, b, ..., DK / b, b])
    shape = [n, c]
    for d in spatial:
        shape += [d // b, b]
    xp = x.reshape(shape)
    blocks = [3 + 2 * i for i in range(k)]
    dims = [2 + 2 * i for i in range(k)]
    order = [0] + blocks + [1] + dims if mode == "blocks_first" else [0, 1] + blocks + dims
    return xp.transpose(order).reshape([n, c * b**k] + [d // b for d in spatial])


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    root = sys.argv[1]
    check = "--check" in sys.argv[2:]
    with open(os.path.join(root, "manifest.json")) as f:
        manifest = json.load(f)
    checked = failed = 0
    for v in manifest["vectors"]:
        inputs = {i["name"]: load(root, i) for i in v["inputs"]}
        exp = v["expectation"]
        if any(x is None for x in inputs.values()):
            continue
        if not check or exp["kind"] != "valid" or v["op"] not in ("DepthToSpace", "SpaceToDepth"):
            continue
        a = v["attributes"]
        b, mode = a.get("block_size", 1), a["mode"]
        x = inputs["data"]
        f = depth_to_space if v["op"] == "DepthToSpace" else space_to_depth
        got = f(x, b, mode)
        want = load(root, exp["output"])
        checked += 1
        if got.shape != want.shape or got.tobytes() != want.tobytes():
            failed += 1
            print("FAIL", v["id"])
    print("%d vectors loaded" % len(manifest["vectors"]))
    if check:
        print("numpy check: %d passed, %d failed" % (checked - failed, failed))
    return 1 if failed or (check and checked == 0) else 0


if __name__ == "__main__":
    sys.exit(main())
