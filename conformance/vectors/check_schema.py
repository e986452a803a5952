#!/usr/bin/env python3
"""Validates every vector file under the given folders against
vectors/schema/dmconf-vector-1.schema.json (python3-jsonschema). Exit 77 when jsonschema is
not installed."""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed")
    sys.exit(77)

schema_path, *dirs = sys.argv[1:]
schema = json.loads(pathlib.Path(schema_path).read_text())
validator = jsonschema.Draft202012Validator(schema)
bad = n = 0
for d in dirs:
    for p in sorted(pathlib.Path(d).rglob("*.json")):
        if p.name == "MANIFEST.json" or p.name.endswith(".schema.json"):
            continue
        n += 1
        errors = list(validator.iter_errors(json.loads(p.read_text())))
        if errors:
            bad += 1
            print("%s: %s" % (p, errors[0].message[:200]))
# A file the schema must refuse.
wrong = {"schema": "dmconf-vector/1", "id": "x", "op": "Gather", "version": 1,
         "attributes": {}, "inputs": [], "expectation": {"kind": "valid"},
         "provenance": {"kind": "generated"}}
if validator.is_valid(wrong):
    print("the schema accepts an invalid file")
    bad += 1
print("schema: %d passed, %d failed" % (n - bad, bad))
sys.exit(1 if bad or n == 0 else 0)
