#!/usr/bin/python3
"""Validates JSON documents against a JSON Schema (Debian's python3-jsonschema).

usage: check_schema.py SCHEMA DOC.json [DOC.json ...]; exits 1 naming the first
document and the path of the first violation.
"""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        doc = json.load(open(path))
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        if errors:
            first = errors[0]
            where = "/".join(str(p) for p in first.absolute_path)
            print(f"{path}: at /{where}: {first.message}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
