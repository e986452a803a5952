#!/usr/bin/env python3
"""Validates every vector file under the given folders against its JSON Schema
(python3-jsonschema): check_schema.py SCHEMA.schema.json... DIR...

Each schema names its format in properties.schema.const (dmconf-vector/1 in
vectors/schema/dmconf-vector-1.schema.json, dmconf-shape-case/1 in
dmconf-shape-case-1.schema.json); a file is checked against the schema of its "schema" member,
or the first schema when that is not one of them. Exit 77 when jsonschema is not installed."""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed")
    sys.exit(77)

args = sys.argv[1:]
schema_paths = [a for a in args if a.endswith(".schema.json")]
dirs = [a for a in args if not a.endswith(".schema.json")]
validators = {}
for sp in schema_paths:
    s = json.loads(pathlib.Path(sp).read_text())
    validators[s["properties"]["schema"]["const"]] = jsonschema.Draft202012Validator(s)
first = validators[next(iter(validators))]
bad = n = 0
counts = {}
for d in dirs:
    for p in sorted(pathlib.Path(d).rglob("*.json")):
        if p.name == "MANIFEST.json" or p.name.endswith(".schema.json"):
            continue
        n += 1
        doc = json.loads(p.read_text())
        kind = doc.get("schema") if isinstance(doc, dict) else None
        validator = validators.get(kind, first) if isinstance(kind, str) else first
        counts[kind] = counts.get(kind, 0) + 1
        errors = list(validator.iter_errors(doc))
        if errors:
            bad += 1
            print("%s: %s" % (p, errors[0].message[:200]))
# Files the schemas must refuse.
wrong = {
    "dmconf-vector/1": {"schema": "dmconf-vector/1", "id": "x", "op": "Gather", "version": 1,
                        "attributes": {}, "inputs": [], "expectation": {"kind": "valid"},
                        "provenance": {"kind": "generated"}},
    # A dim above 2^63-1, and SpaceToDepth with inputs.
    "dmconf-shape-case/1": {"schema": "dmconf-shape-case/1", "id": "x", "origin": "",
                            "op": "SpaceToDepth", "attributes": {},
                            "data": {"type": "f32", "shape": [1, 9223372036854775808]},
                            "expected": {"kind": "shape", "output": None}},
}
for kind, validator in validators.items():
    if kind in wrong and validator.is_valid(wrong[kind]):
        print("the %s schema accepts an invalid file" % kind)
        bad += 1
print("schema: %d passed, %d failed (%s)" % (
    n - bad, bad, ", ".join("%s: %d" % (k, v) for k, v in sorted(counts.items(), key=str))))
sys.exit(1 if bad or n == 0 else 0)
